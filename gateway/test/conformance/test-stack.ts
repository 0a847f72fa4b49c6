/**
 * A gateway for the conformance run: the test stack (fresh database, NATS when NATS_URL is set, the scripts and
 * echo test services, and with `--fixtures` the conformance fixture service) on a loopback port, with a key of
 * every scope. Prints `<mcp url> <key>` and serves until stdin closes.
 * Usage: npx tsx gateway/test/conformance/test-stack.ts [--fixtures]
 */
import { startStack } from "@bancada/e2e";
import { echoFactory, scriptsFactory } from "../fixtures.js";
import { conformanceFactory } from "./fixture-service/service.js";

const fixtures = process.argv.includes("--fixtures");
const stack = await startStack({
  services: { scripts: scriptsFactory, echo: echoFactory, ...(fixtures ? { conformance: conformanceFactory } : {}) },
});
const key = await stack.createKey({ scopes: [...stack.gateway.keys.scopes] });
console.log(`${stack.mcpUrl} ${key}`);
process.stdin.resume();
process.stdin.once("end", () => void stack.stop().finally(() => process.exit(0)));
