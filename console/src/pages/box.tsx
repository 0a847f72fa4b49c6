/**
 * One box: its state and size, suspend and resume, fork and snapshot (followed until the copy runs or the
 * snapshot is ready), delete after a confirmation, its published ports as links, its jobs with their logs, and
 * its files: folders to open, files to download through a transfer URL (the service's download-URL mechanism).
 */
import { useCallback, useState, type FormEvent, type ReactNode } from "react";
import { api, newRequestId } from "../api";
import type { JsonAnswer } from "../api-answers";
import { formatDate, t } from "../i18n";
import { refusal, useSession } from "../session";
import { ErrorNote, Reason, Status, useAction, useLoad } from "../ui";
import { boxBusy, boxPath, brl, formatBytes, loadPorts, usePolling, type Box, type Snapshot } from "./box-common";
import { BoxState, PortLinks, PowerButton } from "./boxes";

/** What the boxes service declares for its jobs and folder listings (api-types.ts is generated). */
type Job = JsonAnswer<"/v1/boxes/{boxId}/jobs", "get">["jobs"][number];
type Folder = JsonAnswer<"/v1/boxes/{boxId}/folder", "get">;

const loadBox = (boxId: string) => api<{ box: Box }>("GET", boxPath(boxId)).then((answer) => answer.box);

export function BoxPage({ boxId }: { boxId: string }): ReactNode {
  const box = useLoad(() => loadBox(boxId), [boxId]);
  usePolling(box.data ? boxBusy(box.data) : false, box.reload);
  return (
    <section aria-labelledby="box-title">
      <p>
        <a href="#/boxes">← {t("boxes.title")}</a>
      </p>
      <Status state={box}>{(data) => <BoxDetail box={data} reload={box.reload} />}</Status>
    </section>
  );
}

function BoxDetail({ box, reload }: { box: Box; reload: () => Promise<void> }): ReactNode {
  const session = useSession();
  const live = box.state !== "deleted" && box.state !== "deleting";
  const ports = useLoad(() => loadPorts(box.id), [box.id]);
  // a snapshot saved from this page is listed at once, however quickly it was ready
  const [saved, setSaved] = useState(0);
  return (
    <>
      <h1 id="box-title">{box.name}</h1>
      <p className="box-summary">
        <BoxState box={box} /> · {t("boxes.sizeValue", { vcpus: box.vcpus, mem: box.memMiB, disk: box.dataGiB })} ·{" "}
        {typeof box.costCentavos === "number" ? brl(box.costCentavos) : "—"} · {box.template} ·{box.node ? ` ${box.node} · ` : " "}
        {t("boxes.createdAt", { date: formatDate(box.createdAt) })}
        {box.forkedFrom ? (
          <>
            {" · "}
            <a href={`#/boxes/${encodeURIComponent(box.forkedFrom)}`}>{t("boxes.forkOf")}</a>
          </>
        ) : null}
      </p>
      {live ? <BoxActions box={box} reload={reload} onSnapshot={() => setSaved((count) => count + 1)} /> : null}
      <h2>{t("boxes.ports")}</h2>
      <Status state={ports}>{(list) => <PortLinks ports={list} />}</Status>
      {refusal(session, "images:read") === null ? <SnapshotList box={box} saved={saved} /> : null}
      <JobList box={box} />
      {live ? <FileBrowser box={box} /> : null}
    </>
  );
}

/** Suspend or resume, fork, save a snapshot, delete (asked first). A fork's copies are followed until they run. */
function BoxActions(props: { box: Box; reload: () => Promise<void>; onSnapshot: () => void }): ReactNode {
  const { box, reload, onSnapshot } = props;
  const session = useSession();
  const writeClosed = refusal(session, "boxes:write", true);
  const snapshotClosed = refusal(session, "images:write", true);
  const deleteClosed = refusal(session, "boxes:delete", true);
  const [forkName, setForkName] = useState("");
  const [snapshotName, setSnapshotName] = useState("");
  const [copies, setCopies] = useState<Box[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [snapshotNote, setSnapshotNote] = useState<string | null>(null);
  const action = useAction();

  const followCopies = useCallback(async () => setCopies(await Promise.all(copies.map((copy) => loadBox(copy.id)))), [copies]);
  usePolling(copies.some(boxBusy), followCopies);

  async function power(verb: "suspend" | "resume") {
    await action.run(() => api("POST", boxPath(box.id, `/${verb}`), {}));
    await reload();
  }
  async function fork(event: FormEvent) {
    event.preventDefault();
    const names = forkName.trim() ? { names: [forkName.trim()] } : {};
    const done = await action.run(async () => {
      const answer = await api<{ boxes: Box[] }>(
        "POST",
        boxPath(box.id, "/fork"),
        { ...names, wait: false },
        { "Idempotency-Key": newRequestId() },
      );
      setCopies(answer.boxes);
    });
    if (done) setForkName("");
    await reload();
  }
  async function snapshot(event: FormEvent) {
    event.preventDefault();
    const name = snapshotName.trim() ? { name: snapshotName.trim() } : {};
    const done = await action.run(async () => {
      const answer = await api<{ snapshot: Snapshot }>("POST", boxPath(box.id, "/snapshots"), { ...name, wait: false });
      setSnapshotNote(t("boxes.snapshotStarted", { name: answer.snapshot.name ?? answer.snapshot.id }));
    });
    onSnapshot();
    if (done) setSnapshotName("");
    await reload();
  }
  async function remove() {
    if (await action.run(() => api("DELETE", boxPath(box.id, "?confirm=true")))) window.location.hash = "#/boxes";
  }

  const busy = action.busy || box.operation !== null;
  return (
    <div className="box-actions-panel">
      <div className="inline-form">
        <h2>{t("boxes.actions")}</h2>
        <PowerButton box={box} closed={writeClosed} busy={action.busy} onPower={(verb) => void power(verb)} />
        {confirming ? (
          <span role="group" aria-label={t("boxes.deleteConfirm", { name: box.name })}>
            {t("boxes.deleteConfirm", { name: box.name })}{" "}
            <button type="button" className="danger" disabled={action.busy} onClick={() => void remove()}>
              {t("boxes.deleteYes")}
            </button>{" "}
            <button type="button" className="secondary" onClick={() => setConfirming(false)}>
              {t("cancel")}
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="secondary"
            disabled={deleteClosed !== null}
            title={deleteClosed ?? undefined}
            onClick={() => setConfirming(true)}
          >
            {t("boxes.delete", { name: box.name })}
          </button>
        )}
        <Reason reason={writeClosed} />
        <ErrorNote error={action.error} />
      </div>
      <form className="inline-form" onSubmit={(event) => void fork(event)} aria-labelledby="box-fork-title">
        <h2 id="box-fork-title">{t("boxes.fork.title")}</h2>
        <label>
          {t("boxes.fork.name")} <input value={forkName} maxLength={40} onChange={(e) => setForkName(e.target.value)} />
        </label>
        <button type="submit" disabled={writeClosed !== null || busy} title={writeClosed ?? undefined}>
          {t("boxes.fork.submit", { name: box.name })}
        </button>
        {copies.length > 0 ? (
          <ul className="box-copies" aria-live="polite">
            {copies.map((copy) => (
              <li key={copy.id}>
                <a href={`#/boxes/${encodeURIComponent(copy.id)}`}>{copy.name}</a> <BoxState box={copy} />
              </li>
            ))}
          </ul>
        ) : null}
      </form>
      <form className="inline-form" onSubmit={(event) => void snapshot(event)} aria-labelledby="box-snapshot-title">
        <h2 id="box-snapshot-title">{t("boxes.snapshot.title")}</h2>
        <label>
          {t("boxes.snapshot.name")} <input value={snapshotName} maxLength={100} onChange={(e) => setSnapshotName(e.target.value)} />
        </label>
        <button type="submit" disabled={snapshotClosed !== null || busy} title={snapshotClosed ?? undefined}>
          {t("boxes.snapshot.submit", { name: box.name })}
        </button>
        <Reason reason={snapshotClosed} />
        {snapshotNote ? (
          <p role="status" className="reason">
            {snapshotNote}
          </p>
        ) : null}
      </form>
    </div>
  );
}

/** The box's snapshots, followed while one is being saved (the box's `snapshot` operation, or a `creating` one). */
function SnapshotList({ box, saved }: { box: Box; saved: number }): ReactNode {
  const snapshots = useLoad(
    () =>
      api<{ snapshots: Snapshot[] }>("GET", `/v1/snapshots?boxId=${encodeURIComponent(box.id)}&limit=20`).then(
        (answer) => answer.snapshots,
      ),
    [box.id, box.operation?.kind, saved],
  );
  usePolling(
    (snapshots.data ?? []).some((snapshot) => snapshot.state === "creating"),
    snapshots.reload,
  );
  return (
    <>
      <h2>{t("boxes.snapshots")}</h2>
      <Status state={snapshots}>
        {(list) =>
          list.length === 0 ? (
            <p>{t("boxes.noSnapshots")}</p>
          ) : (
            <ul className="box-snapshots">
              {list.map((snapshot) => (
                <li key={snapshot.id}>
                  {snapshot.name ?? snapshot.id} <span className="badge">{snapshot.state}</span>{" "}
                  {snapshot.sizeBytes !== null ? <small>{formatBytes(snapshot.sizeBytes)}</small> : null}{" "}
                  {snapshot.stateReason ? <small>{snapshot.stateReason}</small> : null}
                </li>
              ))}
            </ul>
          )
        }
      </Status>
    </>
  );
}

/** The box's jobs, newest first; one job's logs at a time, read again every 2 s while it runs. */
function JobList({ box }: { box: Box }): ReactNode {
  const jobs = useLoad(() => api<{ jobs: Job[] }>("GET", boxPath(box.id, "/jobs")).then((answer) => answer.jobs), [box.id]);
  const [shown, setShown] = useState<string | null>(null);
  usePolling(
    (jobs.data ?? []).some((job) => job.status === "running"),
    jobs.reload,
    2000,
  );
  const label = (job: Job) => job.name ?? job.id;
  return (
    <>
      <h2>{t("boxes.jobs")}</h2>
      {/* an agent may start a job while the page is open: read the list again on demand */}
      <button type="button" className="secondary" disabled={jobs.loading} onClick={() => void jobs.reload()}>
        {t("boxes.refreshJobs")}
      </button>
      <Status state={jobs}>
        {(list) =>
          list.length === 0 ? (
            <p>{t("boxes.noJobs")}</p>
          ) : (
            <ul className="box-jobs">
              {list.map((job) => (
                <li key={job.id}>
                  <span className="box-job-line">
                    <strong>{label(job)}</strong> <code>{job.cmd ?? job.argv?.join(" ")}</code> <span className="badge">{job.status}</span>
                    {job.exitCode !== null ? <small>{t("boxes.exitCode", { code: job.exitCode })}</small> : null}{" "}
                    <small>{formatDate(job.startedAt)}</small>{" "}
                    <button
                      type="button"
                      className="secondary"
                      aria-expanded={shown === job.id}
                      onClick={() => setShown(shown === job.id ? null : job.id)}
                    >
                      {t(shown === job.id ? "boxes.hideLogs" : "boxes.showLogs", { job: label(job) })}
                    </button>
                  </span>
                  {shown === job.id ? <JobLogs box={box} job={job} /> : null}
                </li>
              ))}
            </ul>
          )
        }
      </Status>
    </>
  );
}

/** The last 500 lines of a job's log (a longer log is read whole with job_logs' offsets by an agent). */
function JobLogs({ box, job }: { box: Box; job: Job }): ReactNode {
  const logs = useLoad(
    () => api<{ data: string }>("GET", boxPath(box.id, `/jobs/${encodeURIComponent(job.id)}/logs?tail=500`)).then((answer) => answer.data),
    [box.id, job.id, job.status],
  );
  usePolling(job.status === "running", logs.reload, 2000);
  return (
    <Status state={logs}>
      {(text) => (
        <pre className="box-log" tabIndex={0} aria-label={t("boxes.logsOf", { job: job.name ?? job.id })}>
          {text || t("boxes.emptyLog")}
        </pre>
      )}
    </Status>
  );
}

/** One folder at a time: open a folder, go up, download a file or the whole folder through a transfer URL minted for it. */
function FileBrowser({ box }: { box: Box }): ReactNode {
  const [folder, setFolder] = useState("/data/home");
  const [typed, setTyped] = useState(folder);
  const listing = useLoad(() => api<Folder>("GET", boxPath(box.id, `/folder?path=${encodeURIComponent(folder)}`)), [box.id, folder]);
  const download = useAction();
  const open = (path: string) => {
    setFolder(path);
    setTyped(path);
  };
  const child = (name: string) => (folder === "/" ? `/${name}` : `${folder}/${name}`);
  const parent = folder.replace(/\/[^/]*$/, "") || "/";

  /** A file as it is, or a whole folder packed as one tar.zst (`archive`): the URL is minted for that one path. */
  async function fetchFile(path: string, name: string, archive = false) {
    await download.run(async () => {
      const answer = await api<{ url: string }>("POST", boxPath(box.id, "/download-url"), archive ? { path, archive } : { path });
      // the URL carries its own signature (no key): the browser fetches it as an ordinary download
      const link = document.createElement("a");
      link.href = answer.url;
      link.download = name;
      link.rel = "noreferrer";
      document.body.append(link);
      link.click();
      link.remove();
    });
  }
  function go(event: FormEvent) {
    event.preventDefault();
    if (typed.trim()) open(typed.trim());
  }

  return (
    <>
      <h2>{t("boxes.files")}</h2>
      <form className="inline-form" onSubmit={go} aria-label={t("boxes.files")}>
        <label>
          {t("boxes.folder")} <input value={typed} maxLength={4096} onChange={(e) => setTyped(e.target.value)} />
        </label>
        <button type="submit">{t("boxes.openFolder")}</button>
        <button type="button" className="secondary" disabled={folder === "/"} onClick={() => open(parent)}>
          {t("boxes.up")}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={download.busy || !listing.data}
          onClick={() => void fetchFile(folder, `${folder.split("/").pop() || "box"}.tar.zst`, true)}
        >
          {t("boxes.downloadFolder")}
        </button>
      </form>
      <ErrorNote error={download.error} />
      <Status state={listing}>
        {(data) =>
          data.entries.length === 0 ? (
            <p>{t("boxes.emptyFolder", { path: data.path })}</p>
          ) : (
            <table className="box-files">
              <caption className="visually-hidden">{data.path}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("boxes.name")}</th>
                  <th scope="col">{t("boxes.fileSize")}</th>
                  <th scope="col">{t("boxes.modified")}</th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((entry) => (
                  <tr key={entry.name}>
                    <td>
                      {entry.type === "folder" ? (
                        <button type="button" className="link-button" onClick={() => open(child(entry.name))}>
                          {entry.name}/
                        </button>
                      ) : entry.type === "file" ? (
                        <button
                          type="button"
                          className="link-button"
                          aria-label={t("boxes.download", { name: entry.name })}
                          disabled={download.busy}
                          onClick={() => void fetchFile(child(entry.name), entry.name)}
                        >
                          {entry.name} ⤓
                        </button>
                      ) : (
                        entry.name
                      )}
                    </td>
                    <td>{entry.type === "file" ? formatBytes(entry.size) : ""}</td>
                    <td>{formatDate(entry.modifiedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Status>
      {listing.data?.truncated ? <p className="reason">{t("boxes.folderTruncated")}</p> : null}
    </>
  );
}
