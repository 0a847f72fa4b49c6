import { pino, type Logger, type LevelWithSilent } from "pino";

export type { Logger };

/**
 * Structured JSON logs: `name` is the process, and each component's child logger adds `svc` (set once, so a
 * line never carries the same key twice). On the stdio transport stdout carries the protocol, so logs go
 * to stderr (fd 2).
 */
export function createLogger(name: string, level: LevelWithSilent = "info", fd: 1 | 2 | NodeJS.WritableStream = 1): Logger {
  // a stream instead of a descriptor: tests read what was logged
  const destination = typeof fd === "number" ? pino.destination({ fd, sync: false }) : fd;
  return pino({ name, level, base: { pid: process.pid } }, destination);
}
