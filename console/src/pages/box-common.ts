/** What the Boxes page and one box's page share: the shapes the boxes service answers, money, and polling. */
import { useEffect } from "react";
import { api, ApiError } from "../api";
import type { JsonAnswer } from "../api-answers";
import { language } from "../i18n";

// the boxes service's answers, as its routes declare them (api-types.ts, generated from GET /v1/openapi.json)
export type Port = JsonAnswer<"/v1/boxes/{boxId}/ports", "get">["ports"][number];
export type Box = JsonAnswer<"/v1/boxes", "get">["boxes"][number];
export type Snapshot = JsonAnswer<"/v1/snapshots", "get">["snapshots"][number];

export const brl = (centavos: number) =>
  (centavos / 100).toLocaleString(language === "pt" ? "pt-BR" : "en-GB", { style: "currency", currency: "BRL" });

/** Bytes as people read them: 11 B, 2.1 KiB, 340 MiB. */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toLocaleString(language === "pt" ? "pt-BR" : "en-GB", { maximumFractionDigits: digits })} ${units[unit]}`;
}

export const boxPath = (boxId: string, rest = "") => `/v1/boxes/${encodeURIComponent(boxId)}${rest}`;

/** A box in the middle of something (being made or deleted, or copying its disk for a fork or a snapshot). */
export const boxBusy = (box: Pick<Box, "state" | "operation">) =>
  box.state === "creating" || box.state === "deleting" || box.operation !== null;

/** The box's published ports; a server without the route (404) has none to show. */
export function loadPorts(boxId: string): Promise<Port[]> {
  return api<{ ports: Port[] }>("GET", boxPath(boxId, "/ports")).then(
    (result) => result.ports,
    (error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return [];
      throw error;
    },
  );
}

/** Calls `tick` every `ms` while `active`: long actions (create, fork, snapshot) are followed until they end. */
export function usePolling(active: boolean, tick: () => Promise<unknown>, ms = 1500): void {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void tick(), ms);
    return () => clearInterval(timer);
  }, [active, tick, ms]);
}
