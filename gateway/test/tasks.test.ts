/**
 * MCP tasks through the real stack (Postgres, NATS, services on the tool host): a tools/call run as a task returns
 * at once, its status and result are read with tasks/*, it can be cancelled (the service's handler is aborted), it is
 * its key's alone, any gateway replica answers for it, and a replica killed while it waits leaves the task failed,
 * not working forever. 2025-11-25 through the 1.x SDK Client over HTTP and stdio (the revision's task-augmented requests); 2026-07-28 as
 * the tasks extension's requests on the wire (the v2 SDK Client has no task support to drive it with).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  CancelTaskResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createLogger, defineTool, hostTools } from "@bancada/service-kit";
import { createGateway, type Gateway } from "@bancada/gateway";
import { natsUrl, startStack, type ServiceFactory, type Stack } from "@bancada/e2e";
import { fastRequestOf } from "../src/http/mcp-fast-path.js";
import { tasksTools } from "./conformance/fixtures/tasks-tools.js";
import { modernVersion } from "./mcp-clients.js";
import { registeredScopes } from "@bancada/service-registry";

const tasksExtension = "io.modelcontextprotocol/tasks";

/** What the long task tool saw: whether its call was aborted. */
const longCalls: { aborted: boolean }[] = [];

const longWait = defineTool({
  name: "long_wait",
  description: "Waits `ms` unless cancelled; may run as a task.",
  input: z.strictObject({ ms: z.number().int().min(0).max(60_000) }),
  output: z.object({ waited: z.number() }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "docs:read",
  maxDurationMs: 60_000,
  task: "optional",
  handler: async (ctx, input) => {
    const record = { aborted: false };
    longCalls.push(record);
    ctx.signal.addEventListener("abort", () => (record.aborted = true));
    for (let at = 0; at < input.ms && !ctx.signal.aborted; at += 100) {
      ctx.progress({ progress: at, total: input.ms, message: "waiting" });
      await sleep(100);
    }
    return { waited: input.ms };
  },
});

const jobsFactory: ServiceFactory = async ({ bus, subjects, log }) => {
  const host = hostTools({
    bus,
    subjects,
    service: "jobs",
    version: "1",
    instructions: "Jobs: for tests.",
    tools: [...tasksTools, longWait],
    log,
  });
  return { name: "jobs", routes: Router(), stop: async () => host.stop() };
};

interface RpcAnswer {
  status: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** One 2026-07-28 request on the wire; `tasks` declares the tasks extension in its client capabilities. */
async function modern(url: string, key: string, method: string, params: Record<string, unknown>, tasks = true): Promise<RpcAnswer> {
  const name = typeof params.name === "string" ? params.name : typeof params.taskId === "string" ? params.taskId : undefined;
  const response = await fetch(url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": modernVersion,
      "mcp-method": method,
      ...(name !== undefined ? { "mcp-name": name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": modernVersion,
          "io.modelcontextprotocol/clientCapabilities": tasks ? { extensions: { [tasksExtension]: {} } } : {},
          "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "1" },
        },
      },
    }),
  });
  const body = (await response.json()) as Omit<RpcAnswer, "status">;
  return { status: response.status, ...body };
}

/** tasks/get until the task leaves `working`. */
async function settled(url: string, key: string, taskId: string, timeoutMs = 30_000): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const got = await modern(url, key, "tasks/get", { taskId });
    expect(got.error).toBeUndefined();
    if (got.result!.status !== "working" || Date.now() > until) return got.result!;
    await sleep(100);
  }
}

async function legacyClient(url: string, key: string): Promise<Client> {
  const client = new Client({ name: "tasks-test-v1", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

describe("the fast path and tasks", () => {
  const support: Record<string, "optional" | "required"> = { slow_compute: "optional", failing_job: "required" };
  const taskSupportOf = (tool: string) => support[tool];
  const call = (name: string, capabilities: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: {
      name,
      arguments: {},
      _meta: {
        "io.modelcontextprotocol/protocolVersion": modernVersion,
        "io.modelcontextprotocol/clientCapabilities": capabilities,
        "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" },
      },
    },
  });
  const headers = (name: string) => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": modernVersion,
    "mcp-method": "tools/call",
    "mcp-name": name,
  });
  const withTasks = { extensions: { [tasksExtension]: {} } };

  it("when a call may become a task, or must be refused as one, then the fast path leaves it to the SDK; any other call it takes", () => {
    expect(fastRequestOf(headers("slow_compute"), call("slow_compute", withTasks), taskSupportOf)).toBeUndefined();
    expect(fastRequestOf(headers("failing_job"), call("failing_job", {}), taskSupportOf)).toBeUndefined();
    expect(fastRequestOf(headers("slow_compute"), call("slow_compute", {}), taskSupportOf)).toBeDefined();
    expect(fastRequestOf(headers("greet"), call("greet", withTasks), taskSupportOf)).toBeDefined();
    // tasks off: nothing changes
    expect(fastRequestOf(headers("slow_compute"), call("slow_compute", withTasks))).toBeDefined();
  });
});

describe("MCP tasks", () => {
  let stack: Stack;
  let keyA: string;
  let keyA2: string;
  let keyB: string;
  let keyLimit: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    stack = await startStack({
      services: { jobs: jobsFactory },
      gateway: { tasks: { heartbeatMs: 200, orphanAfterMs: 1_500, sweepMs: 300, maxWorkingPerKey: 3 } },
    });
    keyA = await stack.createKey({ scopes: ["docs:read"] });
    keyA2 = await stack.createKey({ scopes: ["docs:read"] });
    keyB = await stack.createKey({ accountId: "acct-b", personId: "person-b", scopes: ["docs:read"] });
    keyLimit = await stack.createKey({ scopes: ["docs:read"] });
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await stack?.stop();
  });

  describe("2025-11-25 (task-augmented requests, 1.x SDK Client)", () => {
    let client: Client;
    beforeAll(async () => {
      client = await legacyClient(stack.mcpUrl, keyA);
      clients.push(client);
    });

    it("when the client connects, then tasks are advertised and each tool says whether it runs as a task", async () => {
      expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
      const { tools } = await client.listTools();
      const support = Object.fromEntries(tools.map((tool) => [tool.name, tool.execution?.taskSupport]));
      expect(support).toMatchObject({ slow_compute: "optional", failing_job: "required", long_wait: "optional", greet: undefined });
    });

    it("when slow_compute is called as a task, then it returns a task at once, tasks/get follows it and tasks/result gives the tool's result", async () => {
      const created = await client.request(
        { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 1, label: "legacy" }, task: { ttl: 120_000 } } },
        CreateTaskResultSchema,
      );
      // "working": the answer came before the work's end (a timing bound would be flaky on a loaded machine)
      expect(created.task).toMatchObject({ status: "working", ttl: 120_000, pollInterval: 1_000 });
      const { taskId } = created.task;
      const got = await client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema);
      expect(got).toMatchObject({ taskId, status: "working" });
      const result = await client.request({ method: "tasks/result", params: { taskId } }, CallToolResultSchema);
      expect(result.structuredContent).toEqual({ slept: 1, label: "legacy" });
      expect(result._meta?.["io.modelcontextprotocol/related-task"]).toEqual({ taskId });
      expect((await client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema)).status).toBe("completed");
      const listed = await client.request({ method: "tasks/list", params: {} }, ListTasksResultSchema);
      expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
    }, 30_000);

    it("when a task's progress is reported, then tasks/get shows it as the status message", async () => {
      const created = await client.request(
        { method: "tools/call", params: { name: "long_wait", arguments: { ms: 3_000 }, task: {} } },
        CreateTaskResultSchema,
      );
      let message: string | undefined;
      for (let i = 0; i < 40 && !message; i++) {
        await sleep(100);
        message = (await client.request({ method: "tasks/get", params: { taskId: created.task.taskId } }, GetTaskResultSchema))
          .statusMessage;
      }
      expect(message).toMatch(/^waiting \(\d+\/3000\)$/);
      await client.request({ method: "tasks/cancel", params: { taskId: created.task.taskId } }, CancelTaskResultSchema);
    }, 30_000);

    it("when a working task is cancelled, then it is cancelled, the service's call is aborted, and a second cancel is refused", async () => {
      const before = longCalls.length;
      const created = await client.request(
        { method: "tools/call", params: { name: "long_wait", arguments: { ms: 30_000 }, task: {} } },
        CreateTaskResultSchema,
      );
      const { taskId } = created.task;
      for (let i = 0; i < 100 && longCalls.length === before; i++) await sleep(50);
      const cancelled = await client.request({ method: "tasks/cancel", params: { taskId } }, CancelTaskResultSchema);
      expect(cancelled).toMatchObject({ taskId, status: "cancelled" });
      await expect.poll(() => longCalls[before]?.aborted, { timeout: 10_000 }).toBe(true);
      await expect(client.request({ method: "tasks/cancel", params: { taskId } }, CancelTaskResultSchema)).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("already cancelled"),
      });
      await expect(client.request({ method: "tasks/result", params: { taskId } }, CallToolResultSchema)).rejects.toMatchObject({
        code: -32600,
      });
    }, 30_000);

    it("when a tool runs only as a task and is called plainly, or a sync tool is asked for a task, then the call is refused with -32601", async () => {
      await expect(
        client.request({ method: "tools/call", params: { name: "failing_job", arguments: {} } }, CallToolResultSchema),
      ).rejects.toMatchObject({
        code: -32601,
      });
      await expect(
        client.request({ method: "tools/call", params: { name: "greet", arguments: { name: "x" }, task: {} } }, CreateTaskResultSchema),
      ).rejects.toMatchObject({ code: -32601 });
    });

    it("when the client does not ask for a task, then slow_compute answers as a plain call, as before", async () => {
      const result = await client.callTool({ name: "slow_compute", arguments: { seconds: 0 } });
      expect(result.structuredContent).toEqual({ slept: 0 });
    });
  });

  describe("2026-07-28 (the io.modelcontextprotocol/tasks extension)", () => {
    it("when the server is discovered, then it advertises the extension and no v1 tasks capability", async () => {
      const discovered = await modern(stack.mcpUrl, keyA, "server/discover", {});
      const capabilities = discovered.result!.capabilities as Record<string, unknown>;
      expect(capabilities.extensions).toEqual({ [tasksExtension]: {} });
      expect(capabilities.tasks).toBeUndefined();
    });

    it("when a client that declares the extension calls slow_compute, then it gets a task, and tasks/get inlines the result once completed", async () => {
      const created = await modern(stack.mcpUrl, keyA, "tools/call", { name: "slow_compute", arguments: { seconds: 1 } });
      expect(created.result).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 1_000 });
      expect(created.result).not.toHaveProperty("task");
      const taskId = created.result!.taskId as string;
      const immediately = await modern(stack.mcpUrl, keyA, "tasks/get", { taskId });
      expect(immediately.result).toMatchObject({ taskId, resultType: "complete" });
      const done = await settled(stack.mcpUrl, keyA, taskId);
      expect(done).toMatchObject({ status: "completed", result: { structuredContent: { slept: 1 } } });
      expect(done).not.toHaveProperty("error");
    }, 30_000);

    it("when a client does not declare the extension, then the same call is a plain call and tasks/* answer -32021", async () => {
      const plain = await modern(stack.mcpUrl, keyA, "tools/call", { name: "slow_compute", arguments: { seconds: 0 } }, false);
      expect(plain.result).toMatchObject({ resultType: "complete", structuredContent: { slept: 0 } });
      const required = await modern(stack.mcpUrl, keyA, "tools/call", { name: "failing_job", arguments: {} }, false);
      expect(required.status).toBe(400);
      expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [tasksExtension]: {} } } } });
      for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
        const gated = await modern(
          stack.mcpUrl,
          keyA,
          method,
          { taskId: "00000000-0000-4000-8000-000000000000", inputResponses: {} },
          false,
        );
        expect(gated.error?.code).toBe(-32021);
      }
    });

    it("when the tool reports an error, then the task is completed with isError; when its service fails inside, the task is failed", async () => {
      const failing = await modern(stack.mcpUrl, keyA, "tools/call", { name: "failing_job", arguments: {} });
      const toolError = await settled(stack.mcpUrl, keyA, failing.result!.taskId as string);
      expect(toolError).toMatchObject({ status: "completed", result: { isError: true } });
      const broken = await modern(stack.mcpUrl, keyA, "tools/call", { name: "protocol_error_job", arguments: {} });
      const failed = await settled(stack.mcpUrl, keyA, broken.result!.taskId as string);
      expect(failed).toMatchObject({ status: "failed", error: { code: -32603, message: expect.any(String) } });
      expect(failed).not.toHaveProperty("result");
    }, 30_000);

    it("when a task is cancelled, then the ack is empty, the task settles cancelled and cancelling again is acknowledged the same", async () => {
      const before = longCalls.length;
      const created = await modern(stack.mcpUrl, keyA, "tools/call", { name: "long_wait", arguments: { ms: 30_000 } });
      const taskId = created.result!.taskId as string;
      for (let i = 0; i < 100 && longCalls.length === before; i++) await sleep(50);
      const ack = await modern(stack.mcpUrl, keyA, "tasks/cancel", { taskId });
      expect(Object.keys(ack.result!).sort()).toEqual(["_meta", "resultType"]);
      expect(ack.result!.resultType).toBe("complete");
      expect((await settled(stack.mcpUrl, keyA, taskId)).status).toBe("cancelled");
      await expect.poll(() => longCalls[before]?.aborted, { timeout: 10_000 }).toBe(true);
      expect((await modern(stack.mcpUrl, keyA, "tasks/cancel", { taskId })).result?.resultType).toBe("complete");
    }, 30_000);

    it("when tasks/result or tasks/list is sent, then -32601 (the extension has neither); an unknown task id is -32602", async () => {
      expect((await modern(stack.mcpUrl, keyA, "tasks/result", { taskId: "x" })).error?.code).toBe(-32601);
      expect((await modern(stack.mcpUrl, keyA, "tasks/list", {})).error?.code).toBe(-32601);
      expect((await modern(stack.mcpUrl, keyA, "tasks/get", { taskId: "tasks-conformance-nonexistent-12345" })).error?.code).toBe(-32602);
    });
  });

  it("when another key of the account, or another account, names a task, then it is not found, cannot be cancelled and is not listed", async () => {
    const created = await modern(stack.mcpUrl, keyA, "tools/call", { name: "long_wait", arguments: { ms: 5_000 } });
    const taskId = created.result!.taskId as string;
    for (const other of [keyA2, keyB]) {
      expect((await modern(stack.mcpUrl, other, "tasks/get", { taskId })).error?.code).toBe(-32602);
      expect((await modern(stack.mcpUrl, other, "tasks/cancel", { taskId })).error?.code).toBe(-32602);
      const client = await legacyClient(stack.mcpUrl, other);
      clients.push(client);
      await expect(client.request({ method: "tasks/get", params: { taskId } }, GetTaskResultSchema)).rejects.toMatchObject({
        code: -32602,
      });
      await expect(client.request({ method: "tasks/result", params: { taskId } }, CallToolResultSchema)).rejects.toMatchObject({
        code: -32602,
      });
      const listed = await client.request({ method: "tasks/list", params: {} }, ListTasksResultSchema);
      expect(listed.tasks.map((task) => task.taskId)).not.toContain(taskId);
    }
    expect((await modern(stack.mcpUrl, keyA, "tasks/get", { taskId })).result?.status).toBe("working");
    await modern(stack.mcpUrl, keyA, "tasks/cancel", { taskId });
  }, 30_000);

  it("when a key has as many tasks working as it may, then one more is refused rate_limited until one ends", async () => {
    const start = () => modern(stack.mcpUrl, keyLimit, "tools/call", { name: "long_wait", arguments: { ms: 30_000 } });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await start();
      expect(created.result?.resultType).toBe("task");
      ids.push(created.result!.taskId as string);
    }
    const refused = await start();
    expect(refused.result).toMatchObject({ resultType: "complete", isError: true, structuredContent: { error: { code: "rate_limited" } } });
    expect((refused.result!.structuredContent as { error: { message: string } }).error.message).toContain("3 tasks working");
    await modern(stack.mcpUrl, keyLimit, "tasks/cancel", { taskId: ids.pop()! });
    const again = await start();
    expect(again.result?.resultType).toBe("task");
    ids.push(again.result!.taskId as string);
    for (const taskId of ids) await modern(stack.mcpUrl, keyLimit, "tasks/cancel", { taskId });
  }, 30_000);

  it("when a 2025 client runs a tool as a task over stdio, then the same tasks/* follow it to its result", async () => {
    const client = new Client({ name: "tasks-test-stdio", version: "1.0.0" });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", path.join(import.meta.dirname, "fixtures/stdio-tasks-gateway.ts")],
        cwd: path.resolve(import.meta.dirname, "../.."),
        env: { ...(process.env as Record<string, string>), STDIO_DATABASE_URL: stack.database.url, STDIO_API_KEY: keyA },
        stderr: "ignore",
      }),
      { timeout: 110_000 },
    );
    expect(client.getServerCapabilities()?.tasks).toBeDefined();
    const created = await client.request(
      { method: "tools/call", params: { name: "slow_compute", arguments: { seconds: 1, label: "stdio" }, task: {} } },
      CreateTaskResultSchema,
    );
    expect(created.task.status).toBe("working");
    const result = await client.request({ method: "tasks/result", params: { taskId: created.task.taskId } }, CallToolResultSchema, {
      timeout: 30_000,
    });
    expect(result.structuredContent).toEqual({ slept: 1, label: "stdio" });
    // the stdio gateway wrote the task in the same table: the HTTP gateway answers for it too
    expect((await modern(stack.mcpUrl, keyA, "tasks/get", { taskId: created.task.taskId })).result?.status).toBe("completed");
  }, 150_000);

  describe("two gateway replicas", () => {
    let second: Gateway;
    let server: Server;
    let secondUrl: string;

    beforeAll(async () => {
      second = await createGateway({
        databaseUrl: stack.database.url,
        bus: stack.bus,
        subjects: stack.subjects,
        services: ["jobs"],
        scopes: registeredScopes(),
        log: createLogger("replica", "silent"),
        keyPepper: "test-pepper",
        bindHost: "127.0.0.1",
      });
      server = createServer(second.app);
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      secondUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const until = Date.now() + 30_000;
      while (!second.catalog.tool("slow_compute") && Date.now() < until) await second.catalog.refresh("jobs");
    }, 60_000);
    afterAll(async () => {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
      await second?.stop();
    });

    it("when a task is started on one replica, then the other reports it, returns its result and cancels it", async () => {
      const created = await modern(stack.mcpUrl, keyA, "tools/call", {
        name: "slow_compute",
        arguments: { seconds: 1, label: "replicas" },
      });
      const taskId = created.result!.taskId as string;
      expect((await modern(secondUrl, keyA, "tasks/get", { taskId })).result?.status).toBe("working");
      expect(await settled(secondUrl, keyA, taskId)).toMatchObject({
        status: "completed",
        result: { structuredContent: { label: "replicas" } },
      });

      const client = await legacyClient(secondUrl, keyA);
      clients.push(client);
      const result = await client.request({ method: "tasks/result", params: { taskId } }, CallToolResultSchema);
      expect(result.structuredContent).toEqual({ slept: 1, label: "replicas" });

      const before = longCalls.length;
      const long = await modern(stack.mcpUrl, keyA, "tools/call", { name: "long_wait", arguments: { ms: 30_000 } });
      for (let i = 0; i < 100 && longCalls.length === before; i++) await sleep(50);
      await modern(secondUrl, keyA, "tasks/cancel", { taskId: long.result!.taskId as string });
      // the call waits on the first replica: the cancellation crossed the bus to it, and on to the service
      await expect.poll(() => longCalls[before]?.aborted, { timeout: 10_000 }).toBe(true);
      expect((await settled(stack.mcpUrl, keyA, long.result!.taskId as string)).status).toBe("cancelled");
    }, 60_000);
  });

  describe.skipIf(!natsUrl || process.env.BANCADA_TEST_BUS === "memory")(
    "a replica killed -9 while it waits for a task (needs NATS)",
    () => {
      let child: ChildProcessWithoutNullStreams | undefined;
      afterAll(() => {
        if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      });

      it("when the replica that started a task dies, then another replica's sweep fails the task with a message that says why", async () => {
        child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "fixtures/gateway-process.ts")], {
          env: {
            ...process.env,
            GW_DATABASE_URL: stack.database.url,
            GW_NATS_URL: natsUrl!,
            GW_SIGNING_KEY: stack.bus.keys.export().signingKey!,
            GW_SUBJECT_ROOT: stack.subjects.authResolve.replace(/\.auth\.resolve$/, ""),
            GW_SERVICES: "jobs",
          },
        });
        const orphanGuard = () => child?.kill("SIGKILL");
        process.once("exit", orphanGuard);
        const url = await new Promise<string>((resolve, reject) => {
          let output = "";
          const timer = setTimeout(() => reject(new Error(`the gateway process did not start: ${output}`)), 90_000);
          const read = (chunk: Buffer) => {
            output += chunk.toString();
            const ready = /ready (\S+)\n/.exec(output);
            if (!ready) return;
            clearTimeout(timer);
            resolve(ready[1]!);
          };
          child!.stdout.on("data", read);
          child!.stderr.on("data", read);
          child!.once("exit", (code) => reject(new Error(`the gateway process exited with ${code}: ${output}`)));
        });

        const created = await modern(url, keyA, "tools/call", { name: "long_wait", arguments: { ms: 20_000 } });
        const taskId = created.result!.taskId as string;
        expect((await modern(stack.mcpUrl, keyA, "tasks/get", { taskId })).result?.status).toBe("working");
        child.kill("SIGKILL");
        process.removeListener("exit", orphanGuard);

        const failed = await settled(stack.mcpUrl, keyA, taskId, 15_000);
        expect(failed).toMatchObject({ status: "failed", error: { code: -32603, message: expect.stringContaining("replica") } });
      }, 150_000);
    },
  );
});
