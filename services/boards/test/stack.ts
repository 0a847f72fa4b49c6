import type { ServiceFactory } from "@bancada/e2e";
import { createBoardsService } from "../src/index.js";

/** The boards service as the test stack starts it; expiry jobs are run by the tests themselves. */
export const boardsFactory: ServiceFactory = async (deps) => {
  const service = await createBoardsService({ ...deps, expiryIntervalMs: 0 });
  return { name: "boards", routes: service.routes, stop: () => service.stop() };
};
