/** The OAuth clients the person approved (GET /v1/grants), beside their keys: client, scopes, last use, revoke. */
import { useState, type ReactNode } from "react";
import { api } from "../api";
import type { JsonAnswer } from "../api-answers";
import { formatDate, t } from "../i18n";
import { ErrorNote, HoldingHeaders, RevokeButton, Status, useAction, useLoad } from "../ui";

/** One grant as GET /v1/grants declares it (api-types.ts is generated). */
type GrantView = JsonAnswer<"/v1/grants", "get">["grants"][number];

export function Grants({ closed }: { closed: string | null }): ReactNode {
  const grants = useLoad(() => api<{ grants: GrantView[] }>("GET", "/v1/grants"), []);
  const [confirming, setConfirming] = useState<string | null>(null);
  const revoke = useAction();

  async function revokeGrant(grant: GrantView) {
    await revoke.run(() => api("POST", `/v1/grants/${grant.id}/revoke`));
    setConfirming(null);
    await grants.reload();
  }

  return (
    <section aria-labelledby="grants-title">
      <h2 id="grants-title">{t("grants.title")}</h2>
      <p>{t("grants.intro")}</p>
      <ErrorNote error={revoke.error} />
      <Status state={grants}>
        {({ grants: list }) =>
          list.length === 0 ? (
            <p>{t("grants.empty")}</p>
          ) : (
            <table className="keys grants">
              <thead>
                <tr>
                  <th scope="col">{t("grants.client")}</th>
                  <HoldingHeaders />
                  <th scope="col">
                    <span className="visually-hidden">{t("grants.revoke", { client: "" })}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((grant) => (
                  <tr key={grant.id} data-grant-id={grant.id}>
                    <td>
                      {grant.clientName} <small>{grant.clientId}</small>
                    </td>
                    <td>{grant.scopes.join(" ")}</td>
                    <td>{grant.allowWrites ? t("yes") : t("no")}</td>
                    <td>{grant.allowedBoardIds === null ? t("keys.allBoards") : grant.allowedBoardIds.join(", ") || t("none")}</td>
                    <td>{formatDate(grant.createdAt)}</td>
                    <td>{formatDate(grant.lastUsedAt)}</td>
                    <td>{formatDate(grant.expiresAt)}</td>
                    <td>{stateOf(grant)}</td>
                    <td>
                      <RevokeButton
                        revoked={grant.revokedAt !== null}
                        asking={confirming === grant.id}
                        question={t("grants.revokeConfirm", { client: grant.clientName })}
                        label={t("grants.revoke", { client: grant.clientName })}
                        busy={revoke.busy}
                        disabled={closed !== null}
                        onAsk={() => setConfirming(grant.id)}
                        onCancel={() => setConfirming(null)}
                        onRevoke={() => void revokeGrant(grant)}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Status>
    </section>
  );
}

function stateOf(grant: GrantView): string {
  if (grant.revokedAt) return t("keys.revoked", { date: formatDate(grant.revokedAt) });
  if (Date.parse(grant.expiresAt) <= Date.now()) return t("keys.expired");
  return t("keys.active");
}
