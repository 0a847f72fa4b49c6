import { noScope } from "@bancada/contracts";
import { defineTool } from "@bancada/service-kit";
import type { BoxesRuntime } from "../domain/context.js";
import { getUsage } from "../domain/usage/get-usage.js";
import { getUsageInput, usageResult } from "../domain/usage/schemas.js";
import { boxesContext, readsOnly } from "./context.js";

export const getUsageTool = (rt: BoxesRuntime) =>
  defineTool({
    name: "get_usage",
    title: "Usage this month",
    description:
      "Summary of the workspace's spend on boxes in a month (America/Sao_Paulo time zone): total, forecast to the month's end, the plan's " +
      "allowance, and the spend by task kind (metadata.kind), box, agent and person, each in reais (decimal text) and centavos (integer). " +
      "period YYYY-MM (default: the current month). Any key of the workspace may call it.",
    input: getUsageInput,
    output: usageResult,
    annotations: readsOnly,
    scope: noScope,
    profile: "core",
    handler: (ctx, input) => getUsage(boxesContext(rt, ctx), input),
  });
