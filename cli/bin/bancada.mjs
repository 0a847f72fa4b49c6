#!/usr/bin/env node
// Runs the TypeScript sources directly (tsx's loader): no build step between a clone and a running Bancada.
import { register } from "tsx/esm/api";

register();
await import("../src/main.ts");
