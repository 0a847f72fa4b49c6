/**
 * Prometheus metrics: calls by tool and outcome, their latency, and the errors of each service by code (where the
 * gateway knows which service a call went to). The bus adds its own (bus/bus-metrics.ts).
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

export interface ToolMetrics {
  registry: Registry;
  observe(tool: string, outcome: string, durationMs: number, service?: string): void;
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
  const serviceErrors = new Counter({
    name: "bancada_service_errors_total",
    help: "Tool calls routed to a service that ended in an error, by service and error code (unavailable, deadline_exceeded, not_found…).",
    labelNames: ["service", "code"],
    registers: [registry],
  });
  return {
    registry,
    observe(tool, outcome, durationMs, service) {
      calls.inc({ tool, outcome });
      latency.observe({ tool }, durationMs / 1000);
      if (service !== undefined && outcome !== "ok") serviceErrors.inc({ service, code: outcome });
    },
  };
}
