/**
 * A board's activity event as a sentence in the interface's language ("ana moved Revisar proposta from Do now to
 * Schedule"), not its code. An event type this console does not know yet is shown by its code, never hidden.
 */
import type { ActivityEvent, Board } from "./boards-types";
import { hasLabel, t } from "./i18n";
import { quadrantTitle } from "./quadrant-title";

export function eventSentence(event: ActivityEvent, board: Board, taskTitles: Map<string, string>): string {
  const key = `event.${event.event_type}`;
  const meta = event.metadata;
  // suggestions and moves name their task in the metadata or as the entity
  const taskId = typeof meta.task_id === "string" ? meta.task_id : event.entity_type === "task" ? event.entity_id : undefined;
  const vars = {
    actor: event.actor_id,
    entity: event.entity_id,
    task: (taskId && taskTitles.get(taskId)) || t("event.someTask"),
    from: typeof meta.from_quadrant === "string" ? quadrantTitle(board, meta.from_quadrant) : "?",
    to: typeof meta.to_quadrant === "string" ? quadrantTitle(board, meta.to_quadrant) : "?",
    code: event.event_type,
  };
  return hasLabel(key) && key !== "event.unknown" ? t(key, vars) : t("event.unknown", vars);
}
