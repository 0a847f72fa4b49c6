/**
 * The stack the benchmarks run against: testkit's `startStack` (fresh database, real NATS, private subject
 * root, gateway on a loopback port, the scripts service's REST mounted on the gateway's port), with a
 * scripts factory that also hands back the service object, so the benchmark can call the domain functions
 * in-process with the very Prisma client the service uses.
 */
import "./env.js";
import { startStack, type ServiceFactory, type Stack } from "@bancada/e2e";
import { createScriptsService, type ScriptsService } from "@bancada/scripts";
import { defaultServerLimits } from "@bancada/service-kit";

export interface BenchStack {
  stack: Stack;
  scripts: ScriptsService;
  key: string;
  accountId: string;
  personId: string;
}

export async function startBenchStack(): Promise<BenchStack> {
  let scripts: ScriptsService | undefined;
  const factory: ServiceFactory = async (deps) => {
    scripts = await createScriptsService(deps);
    const service = scripts;
    return { name: "scripts", routes: service.routes, stop: () => service.stop() };
  };
  const stack = await startStack({
    services: { scripts: factory },
    // The default per-key token bucket (burst 200, 100 calls/s) would turn a benchmark into a rate-limit
    // test: lift it so the numbers show the path, not the limiter.
    gateway: { rateLimit: { burst: 1e9, perSecond: 1e9 } },
    // the HTTP server `bancada start` runs (connection cap, header timeout, keep-alive), not Node's bare defaults
    serverLimits: defaultServerLimits,
  });
  if (!scripts) throw new Error("the scripts service did not start");
  if (stack.bus.kind !== "nats" && process.env.BANCADA_TEST_BUS !== "memory") {
    await stack.stop();
    throw new Error(
      `expected the NATS bus, got '${stack.bus.kind}' (set NATS_URL; BANCADA_TEST_BUS=memory to measure the in-process bus on purpose)`,
    );
  }
  const key = await stack.createKey();
  return { stack, scripts, key, accountId: "acct-a", personId: "person-a" };
}

/** Stops the stack (drops the database) on the way out, also on Ctrl-C. */
export function stopOnExit(bench: BenchStack): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= bench.stack.stop().catch((error: unknown) => console.error("stopping the stack failed:", error)));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stop().finally(() => process.exit(130)));
  }
  return stop;
}
