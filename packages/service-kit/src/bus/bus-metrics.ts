/**
 * What a bus's requests do, for /metrics: their latency and outcome, and how many wait for an answer now, by the
 * service and operation their subject names (`<root>.<service>.<operation>`: `scripts.call`, `auth.resolve`).
 * Each bus owns its metrics; `registerIn` adds them to a process's registry (once, however often it is called),
 * so the gateway and the services of one process share one /metrics. Children are kept per subject: a request
 * costs two map look-ups and no label hashing.
 */
import { Counter, Gauge, Histogram, type Metric, type Registry } from "prom-client";
import type { BusFailure } from "./bus-failure.js";

interface SubjectMetrics {
  inFlight: Gauge.Internal<"service" | "operation">;
  duration: Histogram.Internal<"service" | "operation">;
}

export class BusMetrics {
  readonly #duration = new Histogram({
    name: "bancada_bus_request_duration_seconds",
    help: "Bus requests from this process until their answer or failure, by the service and operation of the subject.",
    labelNames: ["service", "operation"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600],
    registers: [],
  });
  readonly #inFlight = new Gauge({
    name: "bancada_bus_requests_in_flight",
    help: "Bus requests from this process waiting for their answer.",
    labelNames: ["service", "operation"],
    registers: [],
  });
  readonly #failures = new Counter({
    name: "bancada_bus_request_failures_total",
    help: "Bus requests that got no answer, by reason (no_responders, responder_lost, unreachable, timeout, cancelled, lost, refused, handler_failed, closed).",
    labelNames: ["service", "operation", "reason"],
    registers: [],
  });
  readonly #bySubject = new Map<string, SubjectMetrics>();

  /** Adds these metrics to `registry` unless they are there already. */
  registerIn(registry: Registry): void {
    const metrics: [string, Metric][] = [
      ["bancada_bus_request_duration_seconds", this.#duration],
      ["bancada_bus_requests_in_flight", this.#inFlight],
      ["bancada_bus_request_failures_total", this.#failures],
    ];
    for (const [name, metric] of metrics) if (!registry.getSingleMetric(name)) registry.registerMetric(metric);
  }

  /** Counts a request as in flight; the function returned ends it, with its failure if it had one. */
  started(subject: string): (failure?: BusFailure) => void {
    const metrics = this.#of(subject);
    const startedAt = performance.now();
    metrics.inFlight.inc();
    return (failure) => {
      metrics.inFlight.dec();
      metrics.duration.observe((performance.now() - startedAt) / 1000);
      if (failure) this.#failures.inc({ ...labelsOf(subject), reason: failure });
    };
  }

  #of(subject: string): SubjectMetrics {
    let metrics = this.#bySubject.get(subject);
    if (!metrics) {
      const labels = labelsOf(subject);
      metrics = { inFlight: this.#inFlight.labels(labels), duration: this.#duration.labels(labels) };
      this.#bySubject.set(subject, metrics);
    }
    return metrics;
  }
}

/** `<root>.scripts.call` → scripts, call; a subject of two tokens names its service first. */
function labelsOf(subject: string): { service: string; operation: string } {
  const tokens = subject.split(".");
  if (tokens.length < 3) return { service: tokens[0] ?? "", operation: tokens[1] ?? "" };
  return { service: tokens[tokens.length - 2]!, operation: tokens[tokens.length - 1]! };
}
