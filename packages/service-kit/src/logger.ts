import { pino, type Logger, type LevelWithSilent } from "pino";
import { PinoPretty } from "pino-pretty";

export type { Logger };

export type LogFormat = "json" | "pretty";

/**
 * Structured JSON logs: `name` is the process, and each component's child logger adds `svc` (set once, so a
 * line never carries the same key twice). On the stdio transport stdout carries the protocol, so logs go
 * to stderr (fd 2). `pretty` (LOG_FORMAT=pretty) renders the same lines for a terminal.
 */
export function createLogger(
  name: string,
  level: LevelWithSilent = "info",
  fd: 1 | 2 | NodeJS.WritableStream = 1,
  format: LogFormat = "json",
): Logger {
  // a stream instead of a descriptor: tests read what was logged
  // minLength 1 writes each line as at 0, but makes flush(cb) wait for the line in flight (at 0 it answers at once,
  // and a banner printed "after" it could reach the terminal first)
  const destination = typeof fd === "number" ? pino.destination({ fd, sync: false, minLength: 1 }) : fd;
  const stream =
    format === "pretty"
      ? PinoPretty({ destination, colorize: typeof fd === "number" && Boolean(process[fd === 1 ? "stdout" : "stderr"].isTTY), sync: false })
      : destination;
  return pino({ name, level, base: { pid: process.pid } }, stream);
}
