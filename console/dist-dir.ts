/** Where the built console is (Vite's output, made at install or by `pnpm build`): the gateway serves it at `/`. */
import path from "node:path";

export const consoleDistDir = path.join(import.meta.dirname, "dist");
