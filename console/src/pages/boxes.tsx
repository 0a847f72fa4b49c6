/**
 * Boxes: a form to create one (size, template, snapshot), each box with its state, size, cost this month and
 * published ports (links); suspend and resume in place, delete with a confirmation; the month's usage as a bar
 * chart per box, with a warning when the forecast passes the plan's allowance. A box's name opens its own page
 * (box.tsx: fork, snapshot, jobs, files). While a box is being made, deleted or copied the list follows it.
 */
import { useCallback, useState, type FormEvent, type ReactNode } from "react";
import { allPages, api, ApiError, newRequestId } from "../api";
import { formatDate, t } from "../i18n";
import { refusal, useSession } from "../session";
import { ErrorNote, Reason, Status, useAction, useLoad } from "../ui";
import type { JsonAnswer } from "../api-answers";
import { boxBusy, boxPath, brl, loadPorts, usePolling, type Box, type Port, type Snapshot } from "./box-common";

/** The month's spend, as GET /v1/usage declares it. */
type Usage = JsonAnswer<"/v1/usage", "get">;

/** The sizes offered, smallest first: vCPUs, memory and disk grow together (the service's own combinations). */
const sizes = [
  { vcpus: 2, memMiB: 4096, dataGiB: 20 },
  { vcpus: 4, memMiB: 8192, dataGiB: 40 },
  { vcpus: 8, memMiB: 16384, dataGiB: 80 },
  { vcpus: 16, memMiB: 32768, dataGiB: 160 },
];

async function loadUsage(): Promise<Usage | null> {
  try {
    return await api<Usage>("GET", "/v1/usage");
  } catch (error) {
    // a server without the usage route answers 404: the page says so instead of failing
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** Each box with its published ports (GET /v1/boxes/:id/ports). */
async function loadBoxes(): Promise<(Box & { ports: Port[] })[]> {
  const boxes = await allPages<Box, "boxes">("/v1/boxes?limit=100", "boxes", 10);
  return Promise.all(boxes.map(async (box) => ({ ...box, ports: await loadPorts(box.id) })));
}

export function BoxesPage(): ReactNode {
  const session = useSession();
  const boxes = useLoad(loadBoxes, []);
  const usage = useLoad(loadUsage, []);
  const deleteClosed = refusal(session, "boxes:delete", true);
  const powerClosed = refusal(session, "boxes:write", true);
  const [confirming, setConfirming] = useState<string | null>(null);
  const action = useAction();
  const reload = boxes.reload;
  usePolling((boxes.data ?? []).some(boxBusy), reload);

  async function act(run: () => Promise<unknown>) {
    if (await action.run(run)) setConfirming(null);
    await Promise.all([reload(), usage.reload()]);
  }
  const deleteBox = (box: Box) => act(() => api("DELETE", boxPath(box.id, "?confirm=true")));
  const power = (box: Box, verb: "suspend" | "resume") => act(() => api("POST", boxPath(box.id, `/${verb}`), {}));

  return (
    <section aria-labelledby="boxes-title">
      <h1 id="boxes-title">{t("boxes.title")}</h1>
      {usage.data ? <UsageWarning usage={usage.data} /> : null}
      <CreateBoxForm onCreated={reload} />
      <ErrorNote error={action.error} />
      <Status state={boxes}>
        {(list) =>
          list.length === 0 ? (
            <p>{t("boxes.empty")}</p>
          ) : (
            <table className="box-list">
              <thead>
                <tr>
                  <th scope="col">{t("boxes.name")}</th>
                  <th scope="col">{t("boxes.state")}</th>
                  <th scope="col">{t("boxes.size")}</th>
                  <th scope="col">{t("boxes.cost")}</th>
                  <th scope="col">{t("boxes.ports")}</th>
                  <th scope="col">{t("keys.created")}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t("boxes.actions")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((box) => (
                  <tr key={box.id}>
                    <td>
                      <a href={`#/boxes/${encodeURIComponent(box.id)}`}>{box.name}</a>
                    </td>
                    <td>
                      <BoxState box={box} />
                    </td>
                    <td>
                      {t("boxes.sizeValue", { vcpus: box.vcpus, mem: box.memMiB, disk: box.dataGiB })}
                      {box.node ? ` · ${box.node}` : ""}
                    </td>
                    <td>{typeof box.costCentavos === "number" ? brl(box.costCentavos) : "—"}</td>
                    <td>
                      <PortLinks ports={box.ports} />
                    </td>
                    <td>{formatDate(box.createdAt)}</td>
                    <td className="box-actions">
                      {box.state === "deleted" || box.state === "deleting" ? null : confirming === box.id ? (
                        <span role="group" aria-label={t("boxes.deleteConfirm", { name: box.name })}>
                          {t("boxes.deleteConfirm", { name: box.name })}{" "}
                          <button type="button" className="danger" disabled={action.busy} onClick={() => void deleteBox(box)}>
                            {t("boxes.deleteYes")}
                          </button>{" "}
                          <button type="button" className="secondary" onClick={() => setConfirming(null)}>
                            {t("cancel")}
                          </button>
                        </span>
                      ) : (
                        <>
                          <PowerButton box={box} closed={powerClosed} busy={action.busy} onPower={(verb) => void power(box, verb)} />
                          <button
                            type="button"
                            className="secondary"
                            disabled={deleteClosed !== null}
                            title={deleteClosed ?? undefined}
                            onClick={() => setConfirming(box.id)}
                          >
                            {t("boxes.delete", { name: box.name })}
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
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

/** The state, what the box is doing now (fork, snapshot…) while it does it, and why it is in that state. */
export function BoxState({ box }: { box: Box }): ReactNode {
  return (
    <>
      <span className="badge">{box.state}</span>
      {box.operation ? (
        <>
          {" "}
          <span className="badge busy">{t("boxes.operation", { operation: box.operation.kind })}</span>
        </>
      ) : null}{" "}
      {box.stateReason ? <small>{box.stateReason}</small> : null}
    </>
  );
}

/** Suspend for a running or sleeping box, Resume for a suspended or stopped one; nothing in other states. */
export function PowerButton(props: {
  box: Box;
  closed: string | null;
  busy: boolean;
  onPower: (verb: "suspend" | "resume") => void;
}): ReactNode {
  const { box, closed, busy, onPower } = props;
  const verb =
    box.state === "running" || box.state === "sleeping"
      ? "suspend"
      : box.state === "suspended" || box.state === "stopped"
        ? "resume"
        : null;
  if (!verb) return null;
  return (
    <button
      type="button"
      className="secondary"
      disabled={closed !== null || busy || box.operation !== null}
      title={closed ?? undefined}
      onClick={() => onPower(verb)}
    >
      {t(verb === "suspend" ? "boxes.suspend" : "boxes.resume", { name: box.name })}
    </button>
  );
}

/** http ports as links (a private one asks for its access token, which only the agent that published it holds). */
export function PortLinks({ ports }: { ports: Port[] }): ReactNode {
  if (ports.length === 0) return t("boxes.noPorts");
  return ports.map((port) => (
    <div key={port.port}>
      {port.protocol === "http" ? (
        <a href={port.url} target="_blank" rel="noreferrer">
          {port.port} → {port.url}
        </a>
      ) : (
        <>
          {port.port} → <code>{port.url}</code>
        </>
      )}{" "}
      <small>({port.visibility})</small>
    </div>
  ));
}

/** Size, template and snapshot; the box is made without waiting, and the list follows it until it runs. */
function CreateBoxForm({ onCreated }: { onCreated: () => Promise<void> }): ReactNode {
  const session = useSession();
  const closed = refusal(session, "boxes:write", true);
  const snapshotsClosed = refusal(session, "images:read");
  const snapshots = useLoad(
    () => (snapshotsClosed ? Promise.resolve([]) : allPages<Snapshot, "snapshots">("/v1/snapshots?limit=100", "snapshots", 5)),
    [snapshotsClosed],
  );
  const [name, setName] = useState("");
  const [size, setSize] = useState(0);
  const [template, setTemplate] = useState("");
  const [snapshotId, setSnapshotId] = useState("");
  const [created, setCreated] = useState<string | null>(null);
  const create = useAction();

  const submit = useCallback(
    async (event: FormEvent) => {
      event.preventDefault();
      setCreated(null);
      const body = {
        ...sizes[size],
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(template.trim() ? { template: template.trim() } : {}),
        ...(snapshotId ? { snapshotId } : {}),
        wait: false,
      };
      const done = await create.run(async () => {
        const answer = await api<{ box: Box }>("POST", "/v1/boxes", body, { "Idempotency-Key": newRequestId() });
        setCreated(answer.box.name);
      });
      if (done) setName("");
      await onCreated();
    },
    [name, size, template, snapshotId, create, onCreated],
  );

  const ready = (snapshots.data ?? []).filter((snapshot) => snapshot.state === "ready");
  return (
    <form className="inline-form box-create" onSubmit={(event) => void submit(event)} aria-labelledby="box-create-title">
      <h2 id="box-create-title">{t("boxes.create.title")}</h2>
      <label>
        {t("boxes.name")}{" "}
        <input
          value={name}
          maxLength={40}
          pattern="[a-z0-9\-]{1,40}"
          placeholder={t("boxes.create.namePlaceholder")}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label>
        {t("boxes.size")}{" "}
        <select value={size} onChange={(e) => setSize(Number(e.target.value))}>
          {sizes.map((option, index) => (
            <option key={index} value={index}>
              {t("boxes.sizeValue", { vcpus: option.vcpus, mem: option.memMiB, disk: option.dataGiB })}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("boxes.template")}{" "}
        <input
          value={template}
          maxLength={64}
          placeholder={t("boxes.create.templatePlaceholder")}
          onChange={(e) => setTemplate(e.target.value)}
        />
      </label>
      <label title={snapshotsClosed ?? undefined}>
        {t("boxes.snapshot")}{" "}
        <select value={snapshotId} disabled={snapshotsClosed !== null} onChange={(e) => setSnapshotId(e.target.value)}>
          <option value="">{t("boxes.create.noSnapshot")}</option>
          {ready.map((snapshot) => (
            <option key={snapshot.id} value={snapshot.id}>
              {snapshot.name ?? snapshot.id}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={closed !== null || create.busy}>
        {t("boxes.create.submit")}
      </button>
      <Reason reason={closed} />
      <ErrorNote error={create.error} />
      {created ? (
        <p role="status" className="reason">
          {t("boxes.create.started", { name: created })}
        </p>
      ) : null}
    </form>
  );
}

/** Says so when the month's forecast passes the allowance: the page people open every morning must not be silent. */
function UsageWarning({ usage }: { usage: Usage }): ReactNode {
  if (usage.forecast.centavos <= usage.allowance.centavos) return null;
  return (
    <p className="notice usage-warning" role="status">
      {t("boxes.usageWarning", { forecast: brl(usage.forecast.centavos), allowance: brl(usage.allowance.centavos) })}
    </p>
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
