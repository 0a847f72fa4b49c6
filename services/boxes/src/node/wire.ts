/**
 * How the driver's arguments and answers cross the bus as JSON: bytes (command output, file contents) as base64,
 * maps as their entries, errors as what the control plane must tell apart (a DomainError's body, a DriverError's
 * kind, anything else as its message). Everything else a driver takes or answers is plain data already.
 */
import { DomainError, errorBody } from "@bancada/contracts";
import { DriverError, type DriverErrorKind } from "../driver/driver-error.js";

type Wire = null | boolean | number | string | Wire[] | { [key: string]: Wire };

export function toWire(value: unknown): Wire {
  if (value === undefined || value === null) return null;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("base64") };
  if (value instanceof Map) return { $map: [...value.entries()].map(([key, entry]) => [toWire(key), toWire(entry)]) };
  if (Array.isArray(value)) return value.map(toWire);
  if (typeof value === "object") {
    const out: Record<string, Wire> = {};
    for (const [key, entry] of Object.entries(value)) if (entry !== undefined && !(entry instanceof AbortSignal)) out[key] = toWire(entry);
    return out;
  }
  return value as Wire;
}

export function fromWire(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromWire);
  if (value === null || typeof value !== "object") return value;
  const record = value as Record<string, unknown>;
  if (typeof record.$bytes === "string") return Buffer.from(record.$bytes, "base64");
  if (Array.isArray(record.$map))
    return new Map((record.$map as [unknown, unknown][]).map(([key, entry]) => [fromWire(key), fromWire(entry)]));
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(record)) out[key] = fromWire(entry);
  return out;
}

/** An error as the agent answers it. */
export type WireError =
  | { kind: "domain"; body: unknown }
  | { kind: "driver"; driverKind: DriverErrorKind; message: string }
  | { kind: "other"; message: string; code?: string };

export function errorToWire(error: unknown): WireError {
  if (error instanceof DomainError) return { kind: "domain", body: error.toBody() };
  if (error instanceof DriverError) return { kind: "driver", driverKind: error.kind, message: error.message };
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return { kind: "other", message: error instanceof Error ? error.message : String(error), ...(typeof code === "string" ? { code } : {}) };
}

/** The error the agent reported, as the domain would have seen it from a driver in its own process. */
export function errorFromWire(wire: WireError): Error {
  if (wire.kind === "domain") {
    const body = errorBody.safeParse(wire.body);
    if (body.success) return DomainError.fromBody(body.data);
    return new Error("the node agent answered an error the control plane cannot read");
  }
  if (wire.kind === "driver") return new DriverError(wire.driverKind, wire.message);
  const error = new Error(wire.message) as NodeJS.ErrnoException;
  if (wire.code) error.code = wire.code;
  return error;
}
