/** Services for gateway tests: the real scripts service, and the tiny echo service (fixtures/echo-service.ts). */
import type { ServiceFactory } from "@bancada/e2e";
import { createScriptsService } from "@bancada/scripts";

export { echoFactory, slowCalls, waitCalls } from "./fixtures/echo-service.js";

export const scriptsFactory: ServiceFactory = async (deps) => {
  const service = await createScriptsService(deps);
  return { name: "scripts", routes: service.routes, stop: () => service.stop() };
};
