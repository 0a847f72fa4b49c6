/**
 * What the REST routes run, each once: the handler of the tool a route mirrors (its input, access and longest
 * duration come with it), or — where no tool serves the route — its own operation declared the same way
 * (run-operation.ts). Any replica runs any of them: the use cases reach the box's node (domain/box-node.ts).
 */
import { restAccess } from "@bancada/contracts";
import type { Tool } from "@bancada/service-kit";
import { onSnapshotNode } from "../domain/box-node.js";
import type { BoxesRuntime } from "../domain/context.js";
import { listBoxFolder, listBoxJobs } from "../domain/browse.js";
import { deleteSnapshot } from "../domain/delete-snapshot.js";
import { listPorts, unpublishPort } from "../domain/ports/publish-port.js";
import { boxRefInput } from "../domain/schemas/box.js";
import { listFolderInput, listJobsInput } from "../domain/schemas/browse.js";
import { snapshotIdParams } from "../domain/schemas/disk.js";
import { unpublishPortInput } from "../domain/schemas/port.js";
import { boxesContext, onBox } from "../tools/context.js";
import { createBoxTool } from "../tools/create-box.js";
import { deleteBoxTool } from "../tools/delete-box.js";
import { execTool } from "../tools/exec.js";
import { forkBoxTool } from "../tools/fork-box.js";
import { getBoxTool } from "../tools/get-box.js";
import { getDownloadUrlTool } from "../tools/get-download-url.js";
import { getUploadUrlTool } from "../tools/get-upload-url.js";
import { getUsageTool } from "../tools/get-usage.js";
import { jobLogsTool } from "../tools/job-logs.js";
import { jobWaitTool } from "../tools/job-wait.js";
import { listBoxesTool } from "../tools/list-boxes.js";
import { listSnapshotsTool } from "../tools/list-snapshots.js";
import { publishPortTool } from "../tools/publish-port.js";
import { readFileTool } from "../tools/read-file.js";
import { resumeBoxTool } from "../tools/resume-box.js";
import { saveSnapshotTool } from "../tools/save-snapshot.js";
import { startJobTool } from "../tools/start-job.js";
import { suspendBoxTool } from "../tools/suspend-box.js";
import { writeFileTool } from "../tools/write-file.js";
import { routeOperation, toolOperation, type BoxOperation } from "./run-operation.js";

const boxReads = restAccess({ scope: "boxes:read", writes: false });
const boxWrites = restAccess({ scope: "boxes:write", writes: true });
const quickMs = 30_000;

export function boxOperations(rt: BoxesRuntime) {
  const tool = (make: (rt: BoxesRuntime) => Tool): BoxOperation => toolOperation(make(rt));
  return {
    list: tool(listBoxesTool),
    get: tool(getBoxTool),
    create: tool(createBoxTool),
    remove: tool(deleteBoxTool),
    suspend: tool(suspendBoxTool),
    resume: tool(resumeBoxTool),
    exec: tool(execTool),
    startJob: tool(startJobTool),
    jobLogs: tool(jobLogsTool),
    jobWait: tool(jobWaitTool),
    readFile: tool(readFileTool),
    writeFile: tool(writeFileTool),
    usage: tool(getUsageTool),
    fork: tool(forkBoxTool),
    saveSnapshot: tool(saveSnapshotTool),
    listSnapshots: tool(listSnapshotsTool),
    publishPort: tool(publishPortTool),
    uploadUrl: tool(getUploadUrlTool),
    downloadUrl: tool(getDownloadUrlTool),
    // a port's URL names its node's host (BOXES_PORTS_HOST, recorded in box_nodes)
    listPorts: routeOperation({
      name: "list_ports",
      access: boxReads,
      input: boxRefInput,
      maxDurationMs: quickMs,
      handler: async (ctx, input) => ({ ports: await listPorts(await onBox(rt, ctx, input.boxId), input.boxId) }),
    }),
    unpublishPort: routeOperation({
      name: "unpublish_port",
      access: boxWrites,
      input: unpublishPortInput,
      maxDurationMs: quickMs,
      handler: async (ctx, input) => unpublishPort(await onBox(rt, ctx, input.boxId), input),
    }),
    // The console's browsing (docs/boxes.md#the-consoles-reads): no tool serves them; read_file's access.
    listFolder: routeOperation({
      name: "list_folder",
      access: boxReads,
      input: listFolderInput,
      maxDurationMs: 65_000,
      handler: async (ctx, input) => listBoxFolder(await onBox(rt, ctx, input.boxId), input),
    }),
    listJobs: routeOperation({
      name: "list_jobs",
      access: boxReads,
      input: listJobsInput,
      maxDurationMs: quickMs,
      handler: async (ctx, input) => listBoxJobs(await onBox(rt, ctx, input.boxId), input),
    }),
    // No tool deletes a snapshot: the route declares its own access (docs/boxes.md#snapshots); its files are on its node.
    deleteSnapshot: routeOperation({
      name: "delete_snapshot",
      access: boxWrites,
      input: snapshotIdParams,
      maxDurationMs: 60_000,
      handler: async (ctx, input) => ({
        snapshot: await deleteSnapshot(await onSnapshotNode(boxesContext(rt, ctx), input.snapshotId), input.snapshotId),
      }),
    }),
  };
}
