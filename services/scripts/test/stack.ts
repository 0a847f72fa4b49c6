import type { ServiceFactory } from "@bancada/e2e";
import { createScriptsService } from "../src/index.js";

/** The scripts service as the test stack starts it. */
export const scriptsFactory: ServiceFactory = async (deps) => {
  const service = await createScriptsService(deps);
  return { name: "scripts", routes: service.routes, stop: () => service.stop() };
};
