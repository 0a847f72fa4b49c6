/** Activity: the account's recent tool calls from the gateway's audit trail (GET /v1/audit; never arguments). */
import type { ReactNode } from "react";
import { api, ApiError } from "../api";
import { formatDate, t } from "../i18n";
import { Status, useLoad } from "../ui";

interface AuditCall {
  id: string;
  at: string;
  tool: string;
  outcome: string;
  durationMs: number;
  agentId: string;
  personId: string;
}

async function loadAudit(): Promise<AuditCall[] | null> {
  try {
    return (await api<{ calls: AuditCall[] }>("GET", "/v1/audit?limit=100")).calls;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function ActivityPage(): ReactNode {
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t("audit.title")}</h1>
      <AuditTable />
    </section>
  );
}

function AuditTable(): ReactNode {
  const calls = useLoad(loadAudit, []);
  return (
    <Status state={calls}>
      {(list) =>
        list === null ? (
          <p>{t("audit.unavailable")}</p>
        ) : list.length === 0 ? (
          <p>{t("audit.empty")}</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">{t("audit.at")}</th>
                <th scope="col">{t("audit.tool")}</th>
                <th scope="col">{t("audit.agent")}</th>
                <th scope="col">{t("audit.outcome")}</th>
                <th scope="col">{t("audit.duration")}</th>
              </tr>
            </thead>
            <tbody>
              {list.map((call) => (
                <tr key={call.id} className={`outcome-${call.outcome}`}>
                  <td>{formatDate(call.at)}</td>
                  <td>
                    <code>{call.tool}</code>
                  </td>
                  <td>
                    {call.agentId} <small>({call.personId})</small>
                  </td>
                  <td>{call.outcome}</td>
                  <td>{call.durationMs} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Status>
  );
}
