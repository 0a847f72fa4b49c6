/** What the Boxes page and one box's page share: the shapes the boxes service answers, money, and polling. */
import { useEffect } from "react";
import { api, ApiError } from "../api";
import { language } from "../i18n";

export interface Port {
  port: number;
  url: string;
  protocol: "http" | "tcp";
  visibility: "private" | "public";
}
export interface Box {
  id: string;
  name: string;
  state: string;
  stateReason: string | null;
  operation: string | null;
  template: string;
  /** The machine that runs it. */
  node?: string;
  snapshotId: string | null;
  forkedFrom: string | null;
  vcpus: number;
  memMiB: number;
  dataGiB: number;
  costCentavos?: number;
  createdAt: string;
}
export interface Snapshot {
  id: string;
  name: string | null;
  boxId: string;
  state: "creating" | "ready" | "failed" | "deleted";
  stateReason: string | null;
  sizeBytes: number | null;
  createdAt: string;
}

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
