/** Prometheus metrics: calls by tool and outcome, and their latency. */
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface ToolMetrics {
  registry: Registry;
  observe(tool: string, outcome: string, durationMs: number): void;
}

export function createToolMetrics(component: string, registry = new Registry()): ToolMetrics {
  registry.setDefaultLabels({ component });
  if (!registry.getSingleMetric("process_cpu_seconds_total")) collectDefaultMetrics({ register: registry });
  const calls = new Counter({
    name: "bancada_tool_calls_total",
    help: "Tool calls by tool and outcome (ok or an error code).",
    labelNames: ["tool", "outcome"],
    registers: [registry],
  });
  const latency = new Histogram({
    name: "bancada_tool_call_duration_seconds",
    help: "Tool call duration.",
    labelNames: ["tool"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600],
    registers: [registry],
  });
  return {
    registry,
    observe(tool, outcome, durationMs) {
      calls.inc({ tool, outcome });
      latency.observe({ tool }, durationMs / 1000);
    },
  };
}
