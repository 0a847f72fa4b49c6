import { noScope, permits } from "@bancada/contracts";
import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { getUsage } from "../domain/usage/get-usage.js";
import { getUsageInput, usageResult } from "../domain/usage/schemas.js";
import { boxesContext, readsOnly } from "./context.js";

const readsBoxes = { scope: "boxes:read", writes: false } as const;

export const getUsageTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "get_usage",
    title: "Usage this month",
    description:
      "Summary of the workspace's spend on boxes in a month (America/Sao_Paulo time zone): total, forecast to the month's end, the plan's " +
      "allowance, and the spend by task kind (metadata.kind), box, agent and person, each in reais (decimal text) and centavos (integer). " +
      "period YYYY-MM from 2000-01 (default: the current month). Any key of the workspace may call it; a key without boxes:read sees only " +
      "the boxes its own agent created (covers: caller), and the workspace's allowance left.",
    input: getUsageInput,
    output: usageResult,
    annotations: readsOnly,
    scope: noScope,
    profile: "core",
    // the tool needs no scope (its contract, docs/boxes.md: no scope); what it shows of others' spend needs boxes:read
    handler: (ctx, input) =>
      getUsage(boxesContext(rt, ctx), input, permits(readsBoxes, ctx.principal, ctx.transport) ? "account" : "caller"),
  });
