/**
 * The tool catalog against the product contract (docs/boxes.md#tools-built), item by item: names, every
 * parameter (and nothing more), ranges and defaults, scopes and the annotations its labels map to.
 * Its other tools are not built yet (docs/boxes.md#not-built-yet) and must be absent, not half-present.
 * Declarations only: no handler runs, so the runtime is never touched.
 */
import { describe, expect, it } from "vitest";
import { describeTool } from "@bancada/service-kit";
import type { ToolDescriptor } from "@bancada/contracts";
import type { BoxesRuntime } from "../src/domain/context.js";
import { boxesTools } from "../src/tools/index.js";

const readsOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const createsOrChanges = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
const changesOrDeletes = { readOnlyHint: false, destructiveHint: true };

/** The contract: tool → scope, label, parameters (required ones marked with !). */
const seed: Record<string, { scope: string; hints: Record<string, boolean>; params: string[] }> = {
  list_boxes: { scope: "boxes:read", hints: readsOnly, params: ["state", "metadata", "includeDeleted", "limit", "cursor"] },
  get_box: { scope: "boxes:read", hints: readsOnly, params: ["boxId!"] },
  create_box: {
    scope: "boxes:write",
    hints: createsOrChanges,
    params: [
      "name",
      "template",
      "templateVersion",
      "snapshotId",
      "vcpus",
      "memMiB",
      "dataGiB",
      "autoSuspendSeconds",
      "maxRunMinutes",
      "deleteAfterSeconds",
      "metadata",
      "secrets",
      "task",
      "setup",
      "idempotencyKey",
      "wait",
    ],
  },
  delete_box: { scope: "boxes:delete", hints: changesOrDeletes, params: ["boxId!", "confirm", "wait"] },
  suspend_box: { scope: "boxes:write", hints: createsOrChanges, params: ["boxId!", "wait"] },
  resume_box: { scope: "boxes:write", hints: createsOrChanges, params: ["boxId!", "wait"] },
  exec: {
    scope: "boxes:exec",
    hints: { ...changesOrDeletes, openWorldHint: true },
    params: ["cmd", "argv", "cwd", "env", "timeoutSeconds", "stdin", "stdinEncoding", "boxId!"],
  },
  start_job: {
    scope: "boxes:exec",
    hints: { ...changesOrDeletes, openWorldHint: true },
    params: ["name", "cmd", "argv", "cwd", "env", "boxId!", "idempotencyKey"],
  },
  job_logs: { scope: "boxes:read", hints: readsOnly, params: ["boxId!", "jobId!", "offset", "tail"] },
  job_wait: { scope: "boxes:read", hints: readsOnly, params: ["boxId!", "jobId!", "timeoutSeconds"] },
  read_file: { scope: "boxes:read", hints: readsOnly, params: ["boxId!", "path!"] },
  write_file: {
    scope: "boxes:write",
    hints: { ...changesOrDeletes, openWorldHint: false },
    params: ["boxId!", "path!", "content!", "encoding", "mode", "parents"],
  },
  get_usage: { scope: "none", hints: readsOnly, params: ["period"] },
  get_upload_url: { scope: "boxes:write", hints: createsOrChanges, params: ["boxId!", "path!", "mode"] },
  get_download_url: { scope: "boxes:read", hints: readsOnly, params: ["boxId!", "path!", "archive"] },
  fork_box: { scope: "boxes:write", hints: createsOrChanges, params: ["count", "names", "metadata", "boxId!", "idempotencyKey", "wait"] },
  publish_port: { scope: "boxes:write", hints: createsOrChanges, params: ["port!", "protocol", "visibility", "boxId!"] },
  save_snapshot: { scope: "images:write", hints: createsOrChanges, params: ["name", "metadata", "boxId!", "wait"] },
  list_snapshots: { scope: "images:read", hints: readsOnly, params: ["boxId", "limit", "cursor"] },
};

/** The contract's tools not built yet (docs/boxes.md#not-built-yet): none left. */
const later: string[] = [];

const catalog = new Map(boxesTools({} as BoxesRuntime).map((tool) => [tool.name, describeTool(tool)]));
const props = (tool: string) => (catalog.get(tool)!.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties;

describe("catalog against the boxes contract", () => {
  it("when the catalog is listed, then it holds exactly the tools built and none of those not built yet", () => {
    expect([...catalog.keys()].sort()).toEqual(Object.keys(seed).sort());
    for (const name of later) expect(catalog.has(name)).toBe(false);
  });

  it.each(Object.entries(seed))("when %s is described, then its scope, annotations and parameters are the contract's", (name, expected) => {
    const tool = catalog.get(name) as ToolDescriptor;
    expect(tool.scope).toBe(expected.scope);
    expect(tool.annotations).toMatchObject(expected.hints);
    const schema = tool.inputSchema as { properties: Record<string, unknown>; required?: string[]; additionalProperties?: unknown };
    expect(Object.keys(schema.properties).sort()).toEqual(expected.params.map((param) => param.replace("!", "")).sort());
    expect((schema.required ?? []).sort()).toEqual(
      expected.params
        .filter((param) => param.endsWith("!"))
        .map((param) => param.slice(0, -1))
        .sort(),
    );
    expect(schema.additionalProperties).toBe(false);
  });

  it("when ranges and defaults are read from the schemas, then they sit on the contract's edges", () => {
    expect(props("list_boxes").limit).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    expect(props("create_box").vcpus).toMatchObject({ enum: [2, 4, 8, 16, 32] });
    expect(props("create_box").memMiB).toMatchObject({ enum: [4096, 8192, 16384, 32768, 65536] });
    expect(props("create_box").dataGiB).toMatchObject({ minimum: 20, maximum: 500 });
    expect(props("create_box").deleteAfterSeconds).toMatchObject({ minimum: 60, maximum: 86_400 });
    expect(props("create_box").wait).toMatchObject({ default: true });
    for (const tool of ["delete_box", "suspend_box", "resume_box"]) expect(props(tool).wait).toMatchObject({ default: true });
    expect(props("exec").timeoutSeconds).toMatchObject({ minimum: 1, maximum: 600, default: 60 });
    expect(props("exec").stdinEncoding).toMatchObject({ enum: ["utf8", "base64"], default: "utf8" });
    expect(props("job_wait").timeoutSeconds).toMatchObject({ minimum: 1, maximum: 600, default: 300 });
    expect(props("write_file").encoding).toMatchObject({ enum: ["utf8", "base64"], default: "utf8" });
    expect(props("write_file").mode).toMatchObject({ default: "0644" });
    expect(props("write_file").parents).toMatchObject({ default: true });
    expect(props("get_upload_url").mode).toMatchObject({ default: "0644" });
    expect(props("get_download_url").archive).toMatchObject({ default: false });
    expect(props("fork_box").count).toMatchObject({ minimum: 1, maximum: 5 });
    expect(props("fork_box").names).toMatchObject({ minItems: 1, maxItems: 5 });
    expect(props("fork_box").wait).toMatchObject({ default: true });
    expect(props("publish_port").port).toMatchObject({ minimum: 1, maximum: 65_535 });
    expect(props("publish_port").protocol).toMatchObject({ enum: ["http", "tcp"], default: "http" });
    expect(props("publish_port").visibility).toMatchObject({ enum: ["private", "public"], default: "private" });
    expect(props("save_snapshot").wait).toMatchObject({ default: true });
    expect(props("list_snapshots").limit).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
  });

  it("when a source is not acted on in this version, then its description says so; the enforced policies say what happens", () => {
    const create = catalog.get("create_box")!;
    expect(create.description).toContain("resume_box wakes it");
    expect(String(props("create_box").autoSuspendSeconds!.description)).toContain("goes to sleeping");
    expect(String(props("create_box").maxRunMinutes!.description)).toContain("only resume_box wakes it");
    expect(String(props("create_box").deleteAfterSeconds!.description)).toContain("deleted as delete_box does");
    for (const field of ["autoSuspendSeconds", "maxRunMinutes", "deleteAfterSeconds"])
      expect(String(props("create_box")[field]!.description)).not.toMatch(/does not yet/);
    expect(String(props("create_box").snapshotId!.description)).toContain("save_snapshot");
    expect(String(props("create_box").secrets!.description)).toContain("environment variables");
  });

  it("when a client picks the core profile, then resume_box is there, since errors of stopped boxes point to it", () => {
    expect(catalog.get("resume_box")!.profile).toBe("core");
  });
});
