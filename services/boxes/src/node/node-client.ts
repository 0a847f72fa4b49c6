/**
 * The control plane's driver for one node: the BoxDriver interface over the node agent's RPC (node-agent.ts), so the
 * domain's use cases run unchanged whether the box's node is this process or another machine. Each operation is one
 * bus request tagged with the node's key, with a deadline the agent also holds to; an agent that does not answer is
 * `unavailable` naming the node and what lives there (`unreachable` below), one that
 * answers too late `deadline_exceeded`. A caller's abort signal becomes a cancel the agent hears: the operation ends
 * there and answers as it would have in-process (an exec cancelled, a copy removed).
 *
 * The byte streams (upload, download, shells, port connections) are not operations of this RPC: they are served by
 * the node's own listeners (transfer URLs, the published ports' proxy, its SSH endpoint), so asking them here is
 * an error that says so.
 */
import { randomUUID } from "node:crypto";
import { DomainError, ErrorCode, Header, type Subjects } from "@bancada/contracts";
import { admitsReply, checkReply, decodeJson, encodeJson, signBusMessage, type Bus, type BusKey, type Logger } from "@bancada/service-kit";
import type {
  BoxDriver,
  BoxHandle,
  BoxResources,
  BoxSpec,
  DiskCopy,
  DiskSpace,
  DiskTarget,
  DownloadStream,
  Enforcement,
  ExecOutcome,
  ExecRequest,
  FileRead,
  FileWrite,
  FileWriteOutcome,
  FolderList,
  JobProbe,
  JobRequest,
  LogChunk,
  PathInfo,
  ShellProcess,
  SnapshotHandle,
  UploadOutcome,
  BoxLiveness,
} from "../driver/box-driver.js";
import type { BoxPortRow, PortListeners } from "../domain/ports/port-listeners.js";
import { thingOf, unreachable } from "./node-failures.js";
import { boxOf, fillEnforcement, type NodeDescription, type NodeOperation, type NodeReply } from "./node-operations.js";
import { errorFromWire, fromWire, toWire } from "./wire.js";

export interface NodeClientOptions {
  bus: Bus;
  subjects: Subjects;
  node: string;
  /** This node's key (node-key.ts `deriveNodeKey`). */
  key: BusKey;
  /** How long an operation without its own time may take (default 60 s; disk operations 10 min). */
  operationMs?: number;
  /** Each operation asked is logged at debug level ("asked a node's agent": node, op, box, ms). */
  log?: Logger;
}

const defaultOperationMs = 60_000;
/** Making, copying and removing disks: a 10 GiB sparse copy on a slow disk takes minutes (the agent beats while it works). */
const diskOperationMs = 600_000;
/** Beyond a command's own timeout: the agent's time to end it and answer. */
const answerMarginMs = 30_000;

/** The client of one node; `describe` first (its template and enforcement are properties the domain reads at once). */
export async function connectNode(options: NodeClientOptions, what = "node agent"): Promise<NodeClient> {
  const client = new NodeClient(options);
  await client.describe(what);
  return client;
}

export class NodeClient implements BoxDriver {
  readonly node: string;
  readonly #bus: Bus;
  readonly #key: BusKey;
  readonly #subject: string;
  readonly #cancelSubject: string;
  readonly #operationMs: number;
  readonly #log: Logger | undefined;
  #description: NodeDescription | null = null;

  constructor(options: NodeClientOptions) {
    this.node = options.node;
    this.#bus = options.bus;
    this.#key = options.key;
    const { subjects } = options;
    this.#subject = subjects.nodeAgent("boxes", options.node);
    this.#cancelSubject = subjects.nodeAgentCancel("boxes", options.node);
    this.#operationMs = options.operationMs ?? defaultOperationMs;
    this.#log = options.log;
  }

  /** Asks the agent what it is (kind, template, enforcement); the answer is kept. `what`: the thing named if it fails. */
  async describe(what = "node agent"): Promise<NodeDescription> {
    this.#description = (await this.#call("describe", [], { what })) as NodeDescription;
    return this.#description;
  }

  get kind(): string {
    return this.#described().kind;
  }

  get available(): boolean {
    return this.#description?.available ?? false;
  }

  get template(): { name: string; version: string } {
    return this.#described().template;
  }

  enforcement(resources: BoxResources): Enforcement {
    return fillEnforcement(this.#described().enforcement, resources);
  }

  /** A box the node's warm pool started ahead, for a create about to be recorded (null: none of that size waits). */
  async reserveWarmBox(resources: BoxResources): Promise<number | null> {
    return (await this.#call("reserveWarmBox", [resources])) as number | null;
  }

  async releaseWarmBox(hostUid: number): Promise<void> {
    await this.#call("releaseWarmBox", [hostUid]);
  }

  create(spec: BoxSpec): Promise<unknown> {
    return this.#call("create", [spec], { timeoutMs: diskOperationMs });
  }

  async copyDisk(source: BoxHandle, targets: DiskTarget[], signal?: AbortSignal): Promise<DiskCopy> {
    return (await this.#call("copyDisk", [source, targets], { timeoutMs: diskOperationMs, signal })) as DiskCopy;
  }

  createFromCopy(spec: BoxSpec, snapshot?: SnapshotHandle): Promise<unknown> {
    return this.#call("createFromCopy", snapshot ? [spec, snapshot] : [spec], { timeoutMs: diskOperationMs });
  }

  /** The node serves a stopped box's disk on its transfer route (domain/move-box.ts): never over this RPC. */
  exportDisk(): Promise<DownloadStream> {
    return Promise.reject(this.#streamedElsewhere("a box's disk is read from the transfer route of the node it leaves"));
  }

  async importDisk(box: BoxHandle, source: string, signal?: AbortSignal): Promise<{ bytes: number }> {
    return (await this.#call("importDisk", [box, source], { timeoutMs: diskOperationMs, signal })) as { bytes: number };
  }

  /** The node serves a snapshot's files on its transfer route (domain/snapshot-copy.ts): never over this RPC. */
  exportSnapshot(): Promise<DownloadStream> {
    return Promise.reject(this.#streamedElsewhere("a snapshot's files are read from the transfer route of its node"));
  }

  async importSnapshot(snapshot: SnapshotHandle, source: string, signal?: AbortSignal): Promise<{ bytes: number }> {
    return (await this.#call("importSnapshot", [snapshot, source], { timeoutMs: diskOperationMs, signal })) as { bytes: number };
  }

  async releaseDisk(box: BoxHandle): Promise<void> {
    await this.#call("releaseDisk", [box]);
  }

  async deleteSnapshot(snapshot: SnapshotHandle): Promise<void> {
    await this.#call("deleteSnapshot", [snapshot], { timeoutMs: diskOperationMs });
  }

  start(spec: BoxSpec): Promise<unknown> {
    return this.#call("start", [spec], { timeoutMs: diskOperationMs });
  }

  async diskSpace(boxIds: string[]): Promise<DiskSpace> {
    return (await this.#call("diskSpace", [boxIds])) as DiskSpace;
  }

  async inspect(box: BoxHandle): Promise<BoxLiveness> {
    return (await this.#call("inspect", [box])) as BoxLiveness;
  }

  async suspend(box: BoxHandle): Promise<void> {
    await this.#call("suspend", [box]);
  }

  async resume(box: BoxHandle): Promise<void> {
    await this.#call("resume", [box]);
  }

  async stop(box: BoxHandle): Promise<void> {
    await this.#call("stop", [box]);
  }

  async destroy(box: BoxHandle): Promise<void> {
    await this.#call("destroy", [box], { timeoutMs: diskOperationMs });
  }

  async exec(box: BoxHandle, request: ExecRequest): Promise<ExecOutcome> {
    const { signal, ...rest } = request;
    return (await this.#call("exec", [box, rest], { timeoutMs: request.timeoutMs + answerMarginMs, signal })) as ExecOutcome;
  }

  startJob(box: BoxHandle, request: JobRequest): Promise<unknown> {
    return this.#call("startJob", [box, request]);
  }

  async probeJob(box: BoxHandle, jobId: string, runtime: unknown): Promise<JobProbe> {
    return (await this.#call("probeJob", [box, jobId, runtime])) as JobProbe;
  }

  async killJob(box: BoxHandle, jobId: string, runtime: unknown): Promise<void> {
    await this.#call("killJob", [box, jobId, runtime]);
  }

  async readJobLog(
    box: BoxHandle,
    jobId: string,
    range: { offset: number; maxBytes: number } | { tailLines: number; maxBytes: number },
  ): Promise<LogChunk> {
    return (await this.#call("readJobLog", [box, jobId, range])) as LogChunk;
  }

  async jobChanged(box: BoxHandle, jobId: string, maxMs: number, signal?: AbortSignal): Promise<void> {
    await this.#call("jobChanged", [box, jobId, maxMs], { timeoutMs: maxMs + answerMarginMs, signal });
  }

  async readFile(box: BoxHandle, path: string, maxBytes: number): Promise<FileRead> {
    return (await this.#call("readFile", [box, path, maxBytes])) as FileRead;
  }

  async writeFile(box: BoxHandle, write: FileWrite): Promise<FileWriteOutcome> {
    return (await this.#call("writeFile", [box, write])) as FileWriteOutcome;
  }

  async inspectPath(box: BoxHandle, path: string, options: { folderBytes: boolean }): Promise<PathInfo> {
    return (await this.#call("inspectPath", [box, path, options])) as PathInfo;
  }

  async listFolder(box: BoxHandle, path: string, limit: number): Promise<FolderList> {
    return (await this.#call("listFolder", [box, path, limit])) as FolderList;
  }

  async closePorts(box: BoxHandle, port?: number): Promise<void> {
    await this.#call("closePorts", port === undefined ? [box] : [box, port]);
  }

  async sweep(box: BoxHandle): Promise<void> {
    await this.#call("sweep", [box]).catch(() => {});
  }

  upload(): Promise<UploadOutcome> {
    return Promise.reject(this.#streamedElsewhere("uploads go to the transfer URL of the box's node"));
  }

  download(): Promise<DownloadStream> {
    return Promise.reject(this.#streamedElsewhere("downloads come from the transfer URL of the box's node"));
  }

  openShell(): Promise<ShellProcess> {
    return Promise.reject(this.#streamedElsewhere("shells are opened by the SSH endpoint of the box's node"));
  }

  connectPort(): Promise<never> {
    return Promise.reject(this.#streamedElsewhere("published ports are served by the proxy of the box's node"));
  }

  /** The node's published-ports listeners: opened and closed by its agent, served by its own proxy. */
  readonly ports: PortListeners = {
    listen: async (row: BoxPortRow) =>
      (await this.#call("listenPort", [{ id: row.id, boxId: row.boxId, protocol: row.protocol, hostPort: row.hostPort }])) as boolean,
    close: async (portId: string) => void (await this.#call("closePortListener", [portId])),
    // the node closes its own at its stop
    closeAll: async () => {},
  };

  /** Nothing is held for a remote node between operations. */
  async close(): Promise<void> {}

  #described(): NodeDescription {
    if (!this.#description)
      throw new DomainError(ErrorCode.unavailable, `Node ${this.node} has not answered yet: retry in a moment.`, { node: this.node });
    return this.#description;
  }

  #streamedElsewhere(where: string): DomainError {
    return new DomainError(ErrorCode.failedPrecondition, `Node ${this.node} streams bytes on its own listeners: ${where}.`, {
      node: this.node,
    });
  }

  /** One operation: tagged with the node's key, its deadline in the tag, the answer's tag checked. */
  async #call(
    op: NodeOperation,
    args: unknown[],
    options: { timeoutMs?: number; signal?: AbortSignal | undefined; what?: string } = {},
  ): Promise<unknown> {
    const timeoutMs = options.timeoutMs ?? this.#operationMs;
    const deadline = Date.now() + timeoutMs;
    const callId = randomUUID();
    const data = encodeJson({ op, args: toWire(args) });
    const headers = signBusMessage(this.#key, this.#subject, { [Header.callId]: callId, [Header.deadline]: String(deadline) }, data, {
      notAfter: deadline,
    });
    const request = { data, headers };
    const cancel = () => {
      const body = encodeJson({ callId });
      this.#bus.publish(this.#cancelSubject, body, signBusMessage(this.#key, this.#cancelSubject, { [Header.callId]: callId }, body));
    };
    if (options.signal?.aborted) cancel();
    else options.signal?.addEventListener("abort", cancel, { once: true });
    const box = boxOf(op, args);
    const what = options.what ?? thingOf(op, args, box);
    const started = performance.now();
    let reply;
    try {
      reply = await this.#bus.request(this.#subject, data, {
        timeoutMs,
        headers,
        admitReply: admitsReply(this.#key, this.#subject, request),
      });
    } catch (error) {
      throw unreachable(error, this.node, what);
    } finally {
      options.signal?.removeEventListener("abort", cancel);
      this.#log?.debug({ node: this.node, op, box, ms: Math.round(performance.now() - started) }, "asked a node's agent");
    }
    const answer = decodeJson(reply.data) as NodeReply;
    const problem = checkReply(this.#key, this.#subject, request, reply);
    if (problem) {
      // an untagged refusal from the agent itself (the key differs) says why; anything else is not the node's
      const refusal = !answer.ok && !reply.headers[Header.signature] ? errorFromWire(answer.error) : null;
      const reason = refusal instanceof DomainError ? (refusal.details?.reason ?? problem) : problem;
      throw new DomainError(
        ErrorCode.unavailable,
        refusal
          ? `Node ${this.node} refused the control plane's operation (${String(reason)}): its node key is not this deployment's (BOXES_NODE_KEY).`
          : `Node ${this.node} answered without its node key's tag (${problem}).`,
        { node: this.node, reason },
      );
    }
    if (!answer.ok) throw errorFromWire(answer.error);
    return fromWire(answer.value);
  }
}
