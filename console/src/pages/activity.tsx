/**
 * Activity: the account's tool calls from the gateway's audit trail (GET /v1/audit; never arguments), filtered by
 * agent, tool, outcome and a time range, a page at a time: "Older calls" follows the page's cursor (keyset, as the
 * API pages), "Newer calls" goes back to the page before.
 */
import { useState, type FormEvent, type ReactNode } from "react";
import { api, ApiError } from "../api";
import type { JsonAnswer } from "../api-answers";
import { formatDate, t } from "../i18n";
import { Status, useLoad } from "../ui";

/** GET /v1/audit's answer, as the gateway declares it (api-types.ts is generated). */
type AuditPage = JsonAnswer<"/v1/audit", "get">;

interface Filters {
  agent: string;
  tool: string;
  outcome: string;
  /** `datetime-local` values (the browser's time zone), sent as ISO 8601 instants. */
  since: string;
  until: string;
}

const noFilters: Filters = { agent: "", tool: "", outcome: "", since: "", until: "" };
const pageSize = 50;
/** What a call's outcome can be: ok, or one of the error envelope's codes. */
const outcomes = [
  "ok",
  "invalid_argument",
  "unauthenticated",
  "permission_denied",
  "not_found",
  "conflict",
  "idempotency_conflict",
  "failed_precondition",
  "payload_too_large",
  "rate_limited",
  "unavailable",
  "deadline_exceeded",
  "internal",
];

function auditPath(filters: Filters, cursor: string | undefined): string {
  const query = new URLSearchParams({ limit: String(pageSize) });
  for (const name of ["agent", "tool", "outcome"] as const) if (filters[name].trim()) query.set(name, filters[name].trim());
  for (const name of ["since", "until"] as const) if (filters[name]) query.set(name, new Date(filters[name]).toISOString());
  if (cursor) query.set("cursor", cursor);
  return `/v1/audit?${query}`;
}

async function loadAudit(path: string): Promise<AuditPage | null> {
  try {
    return await api<AuditPage>("GET", path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function ActivityPage(): ReactNode {
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [filters, setFilters] = useState<Filters>(noFilters);
  // the cursors that led to the pages before this one: the last is this page's (none: the newest page)
  const [cursors, setCursors] = useState<string[]>([]);
  const path = auditPath(filters, cursors.at(-1));
  const calls = useLoad(() => loadAudit(path), [path]);

  function apply(next: Filters) {
    setFilters(next);
    setCursors([]);
  }
  function submit(event: FormEvent) {
    event.preventDefault();
    apply(draft);
  }
  const field = (name: keyof Filters, label: string, type = "text", list?: string) => (
    <span className="field">
      <label htmlFor={`audit-${name}`}>{label}</label>
      <input
        id={`audit-${name}`}
        type={type}
        value={draft[name]}
        list={list}
        maxLength={type === "text" ? 200 : undefined}
        onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
      />
    </span>
  );

  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t("audit.title")}</h1>
      <form className="filters" onSubmit={submit} aria-label={t("audit.filters")}>
        {field("agent", t("audit.filterAgent"))}
        {field("tool", t("audit.filterTool"))}
        {field("outcome", t("audit.filterOutcome"), "text", "audit-outcomes")}
        <datalist id="audit-outcomes">
          {outcomes.map((outcome) => (
            <option key={outcome} value={outcome} />
          ))}
        </datalist>
        {field("since", t("audit.filterSince"), "datetime-local")}
        {field("until", t("audit.filterUntil"), "datetime-local")}
        <button type="submit">{t("audit.filter")}</button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setDraft(noFilters);
            apply(noFilters);
          }}
        >
          {t("audit.clear")}
        </button>
      </form>
      <Status state={calls}>
        {(page) =>
          page === null ? (
            <p>{t("audit.unavailable")}</p>
          ) : (
            <>
              <AuditTable calls={page.calls} filtered={JSON.stringify(filters) !== JSON.stringify(noFilters)} />
              <nav className="pager" aria-label={t("audit.pageOf", { page: cursors.length + 1 })}>
                <button
                  type="button"
                  className="secondary"
                  disabled={cursors.length === 0}
                  onClick={() => setCursors(cursors.slice(0, -1))}
                >
                  {t("audit.newer")}
                </button>
                <span>{t("audit.pageOf", { page: cursors.length + 1 })}</span>
                <button
                  type="button"
                  className="secondary"
                  disabled={!page.nextCursor}
                  onClick={() => page.nextCursor && setCursors([...cursors, page.nextCursor])}
                >
                  {t("audit.older")}
                </button>
              </nav>
            </>
          )
        }
      </Status>
    </section>
  );
}

function AuditTable({ calls, filtered }: { calls: AuditPage["calls"]; filtered: boolean }): ReactNode {
  if (calls.length === 0) return <p>{filtered ? t("audit.noMatch") : t("audit.empty")}</p>;
  const heads = [t("audit.at"), t("audit.tool"), t("audit.agent"), t("audit.outcome"), t("audit.duration")];
  return (
    <table className="stacked audit">
      <thead>
        <tr>
          {heads.map((head) => (
            <th key={head} scope="col">
              {head}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {calls.map((call) => (
          <tr key={call.id} className={`outcome-${call.outcome}`}>
            <td data-label={heads[0]}>{formatDate(call.at)}</td>
            <td data-label={heads[1]}>
              <code>{call.tool}</code>
            </td>
            <td data-label={heads[2]}>
              {call.agentId} <small>({call.personId})</small>
            </td>
            <td data-label={heads[3]}>{call.outcome}</td>
            <td data-label={heads[4]}>{call.durationMs} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
