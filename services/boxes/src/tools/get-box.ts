import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { getBox } from "../domain/get-box.js";
import { boxRefInput, boxResult } from "../domain/schemas/box.js";
import { boxesContext, readsOnly } from "./context.js";

export const getBoxTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "get_box",
    title: "Show a box",
    description:
      "Shows one box: state and its reason, size (vcpus, memMiB, dataGiB), idle policies, the operation in progress (operation, null when idle), " +
      "what the driver enforces of the requested resources, and the SSH command (a public key registered over REST at /v1/ssh-keys opens a shell with it; null when SSH is off). boxId is the id (bx_…) or the name.",
    input: boxRefInput,
    output: boxResult,
    annotations: readsOnly,
    scope: "boxes:read",
    profile: "core",
    handler: async (ctx, input) => ({ box: await getBox(boxesContext(rt, ctx), input.boxId) }),
  });
