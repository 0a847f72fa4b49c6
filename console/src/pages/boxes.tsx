/**
 * Boxes: each box with its state, size, cost this month and published ports; delete with a confirmation; the
 * month's usage as a bar chart per box when the server has the usage route (GET /v1/usage).
 */
import { useState, type ReactNode } from "react";
import { allPages, api, ApiError } from "../api";
import { formatDate, language, t } from "../i18n";
import { refusal, useSession } from "../session";
import { ErrorNote, Status, useAction, useLoad } from "../ui";

interface Port {
  port: number;
  url: string;
  protocol: "http" | "tcp";
  visibility: "private" | "public";
}
interface Box {
  id: string;
  name: string;
  state: string;
  stateReason: string | null;
  vcpus: number;
  memMiB: number;
  dataGiB: number;
  costCentavos?: number;
  createdAt: string;
}
interface Money {
  reais: string;
  centavos: number;
}
interface Usage {
  period: string;
  total: Money;
  forecast: Money;
  allowance: Money;
  byBox: (Money & { boxId: string; name: string })[];
}

const brl = (centavos: number) =>
  (centavos / 100).toLocaleString(language === "pt" ? "pt-BR" : "en-GB", { style: "currency", currency: "BRL" });

async function loadUsage(): Promise<Usage | null> {
  try {
    return await api<Usage>("GET", "/v1/usage");
  } catch (error) {
    // a server without the usage route answers 404: the page says so instead of failing
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** Each box with its published ports (GET /v1/boxes/:id/ports); a server without that route shows none. */
async function loadBoxes(): Promise<(Box & { ports: Port[] })[]> {
  const boxes = await allPages<Box, "boxes">("/v1/boxes?limit=100", "boxes", 10);
  return Promise.all(
    boxes.map(async (box) => {
      const ports = await api<{ ports: Port[] }>("GET", `/v1/boxes/${encodeURIComponent(box.id)}/ports`).then(
        (result) => result.ports,
        (error: unknown) => {
          if (error instanceof ApiError && error.status === 404) return [];
          throw error;
        },
      );
      return { ...box, ports };
    }),
  );
}

export function BoxesPage(): ReactNode {
  const session = useSession();
  const boxes = useLoad(loadBoxes, []);
  const usage = useLoad(loadUsage, []);
  const closed = refusal(session, "boxes:delete", true);
  const [confirming, setConfirming] = useState<string | null>(null);
  const remove = useAction();

  async function deleteBox(box: Box) {
    await remove.run(() => api("DELETE", `/v1/boxes/${encodeURIComponent(box.id)}?confirm=true`));
    setConfirming(null);
    await boxes.reload();
  }

  return (
    <section aria-labelledby="boxes-title">
      <h1 id="boxes-title">{t("boxes.title")}</h1>
      <ErrorNote error={remove.error} />
      <Status state={boxes}>
        {(list) =>
          list.length === 0 ? (
            <p>{t("boxes.empty")}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("boxes.name")}</th>
                  <th scope="col">{t("boxes.state")}</th>
                  <th scope="col">{t("boxes.size")}</th>
                  <th scope="col">{t("boxes.cost")}</th>
                  <th scope="col">{t("boxes.ports")}</th>
                  <th scope="col">{t("keys.created")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("boxes.delete", { name: "" })}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((box) => {
                  const ports = box.ports;
                  return (
                    <tr key={box.id}>
                      <td>{box.name}</td>
                      <td>
                        <span className="badge">{box.state}</span> {box.stateReason ? <small>{box.stateReason}</small> : null}
                      </td>
                      <td>{t("boxes.sizeValue", { vcpus: box.vcpus, mem: box.memMiB, disk: box.dataGiB })}</td>
                      <td>{typeof box.costCentavos === "number" ? brl(box.costCentavos) : "—"}</td>
                      <td>
                        {ports.length === 0
                          ? t("boxes.noPorts")
                          : ports.map((port) => (
                              <div key={port.port}>
                                {port.port} → <code>{port.url}</code> <small>({port.visibility})</small>
                              </div>
                            ))}
                      </td>
                      <td>{formatDate(box.createdAt)}</td>
                      <td>
                        {box.state === "deleted" ? null : confirming === box.id ? (
                          <span role="group" aria-label={t("boxes.deleteConfirm", { name: box.name })}>
                            {t("boxes.deleteConfirm", { name: box.name })}{" "}
                            <button type="button" className="danger" disabled={remove.busy} onClick={() => void deleteBox(box)}>
                              {t("boxes.deleteYes")}
                            </button>{" "}
                            <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                              {t("cancel")}
                            </button>
                          </span>
                        ) : (
                          <button
                            type="button"
                            className="secondary"
                            disabled={closed !== null}
                            title={closed ?? undefined}
                            onClick={() => setConfirming(box.id)}
                          >
                            {t("boxes.delete", { name: box.name })}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )
        }
      </Status>
      <h2>{t("boxes.usage")}</h2>
      <Status state={usage}>{(data) => (data ? <UsageChart usage={data} /> : <p>{t("boxes.usageUnavailable")}</p>)}</Status>
    </section>
  );
}

/** One bar per box, scaled to the largest; an SVG with a text alternative (the same numbers in a list). */
function UsageChart({ usage }: { usage: Usage }): ReactNode {
  const lines = usage.byBox.slice(0, 20);
  const max = Math.max(1, ...lines.map((line) => line.centavos));
  const rowHeight = 28;
  const width = 640;
  const labelWidth = 200;
  return (
    <figure className="usage">
      <figcaption>
        {t("boxes.usageLine", {
          period: usage.period,
          total: brl(usage.total.centavos),
          forecast: brl(usage.forecast.centavos),
          allowance: brl(usage.allowance.centavos),
        })}
      </figcaption>
      {lines.length > 0 ? (
        <svg
          role="img"
          aria-label={`${t("boxes.usage")} ${usage.period}`}
          width={width}
          height={lines.length * rowHeight + 8}
          viewBox={`0 0 ${width} ${lines.length * rowHeight + 8}`}
        >
          {lines.map((line, index) => {
            const barWidth = Math.max(2, ((width - labelWidth - 100) * line.centavos) / max);
            const y = index * rowHeight + 4;
            return (
              <g key={line.boxId}>
                <text x={0} y={y + 17} className="chart-label">
                  {line.name.slice(0, 28)}
                </text>
                <rect x={labelWidth} y={y} width={barWidth} height={rowHeight - 8} className="chart-bar" />
                <text x={labelWidth + barWidth + 6} y={y + 17} className="chart-value">
                  {brl(line.centavos)}
                </text>
              </g>
            );
          })}
        </svg>
      ) : null}
      <ul className="visually-hidden">
        {lines.map((line) => (
          <li key={line.boxId}>
            {line.name}: {brl(line.centavos)}
          </li>
        ))}
      </ul>
    </figure>
  );
}
