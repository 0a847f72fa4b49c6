/**
 * Quadrant ids are technical and fixed; titles are per board presentation. The four Eisenhower
 * quadrants have default titles (Priorize.me speaks Portuguese); `backlog` holds tasks not prioritised yet.
 */
import { z } from "zod";

export const quadrantIds = [
  "urgent-important",
  "not-urgent-important",
  "urgent-not-important",
  "not-urgent-not-important",
  "backlog",
] as const;
export type QuadrantId = (typeof quadrantIds)[number];
export const matrixQuadrants = quadrantIds.slice(0, 4) as Exclude<QuadrantId, "backlog">[];

export const quadrantId = z.enum(quadrantIds);

const colors = ["gray", "red", "orange", "yellow", "green", "teal", "blue", "purple", "pink"] as const;
export const color = z.enum(colors);

export interface QuadrantLook {
  title: string;
  subtitle: string;
  color: (typeof colors)[number];
}

export const defaultQuadrants: Record<Exclude<QuadrantId, "backlog">, QuadrantLook> = {
  "urgent-important": { title: "Fazer agora", subtitle: "Urgente e importante", color: "red" },
  "not-urgent-important": { title: "Agendar", subtitle: "Importante, não urgente", color: "blue" },
  "urgent-not-important": { title: "Delegar", subtitle: "Urgente, não importante", color: "orange" },
  "not-urgent-not-important": { title: "Eliminar", subtitle: "Nem urgente nem importante", color: "gray" },
};
