/**
 * The console's REST reads of a box: a folder's entries (listed inside the box) and the box's jobs, newest first;
 * bad input answers one line naming the field, and another account reaches neither.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { allScopes, ok, restClient, type Job } from "./helpers.js";
import { closeBoxFixture, describeBoxes, openBoxFixture, type BoxFixture } from "./stack.js";

interface Folder {
  path: string;
  entries: { name: string; type: string; link: boolean; size: number; modifiedAt: string }[];
  truncated: boolean;
}

describeBoxes("browsing a box over REST", () => {
  let fixture: BoxFixture;
  let rest: ReturnType<typeof restClient>;

  beforeAll(async () => {
    fixture = await openBoxFixture("browse");
    rest = restClient(fixture.stack.baseUrl, fixture.key);
  }, 120_000);
  afterAll(() => closeBoxFixture(fixture));

  it("when a folder is listed, then its entries come folders first with type, size and time, links as their targets, odd names whole", async () => {
    const { client, box } = fixture;
    await ok(client, "write_file", { boxId: box.id, path: "/data/home/site/index.html", content: "<h1>hi</h1>" });
    await ok(client, "write_file", { boxId: box.id, path: "/data/home/site/a b\nc.txt", content: "x" });
    await ok(client, "write_file", { boxId: box.id, path: "/data/home/site/assets/app.js", content: "1;" });
    await ok(client, "exec", {
      boxId: box.id,
      cmd: "cd /data/home/site && ln -s assets latest && ln -s index.html home && ln -s gone broken",
    });
    const listed = await rest<Folder>("GET", `/v1/boxes/${box.id}/folder?path=${encodeURIComponent("/data/home/site/")}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.path).toBe("/data/home/site");
    expect(listed.body.entries.map((entry) => [entry.name, entry.type, entry.link])).toEqual([
      ["assets", "folder", false],
      ["latest", "folder", true],
      ["a b\nc.txt", "file", false],
      ["broken", "other", true],
      ["home", "file", true],
      ["index.html", "file", false],
    ]);
    const index = listed.body.entries.find((entry) => entry.name === "index.html")!;
    expect(index.size).toBe(11);
    expect(Date.parse(index.modifiedAt)).toBeGreaterThan(Date.now() - 600_000);
    expect((await rest<Folder>("GET", `/v1/boxes/${box.name}/folder`)).body.path).toBe("/data/home");
  });

  it("when the path is missing, a file or a kernel folder, then the answer says so in one line", async () => {
    const { box } = fixture;
    const missing = await rest<{ error?: { message: string } }>("GET", `/v1/boxes/${box.id}/folder?path=/nowhere`);
    expect([missing.status, missing.body.error?.message]).toEqual([404, "No folder /nowhere in the box."]);
    const file = await rest("GET", `/v1/boxes/${box.id}/folder?path=/data/home/site/index.html`);
    expect(file.status).toBe(400);
    expect(JSON.stringify(file.body)).toContain("/data/home/site/index.html is not a folder");
    expect((await rest("GET", `/v1/boxes/${box.id}/folder?path=/proc`)).status).toBe(400);
    expect((await rest("GET", `/v1/boxes/${box.id}/jobs?limit=0`)).status).toBe(400);
  });

  it("when the box is suspended, then its folder is not listed and the answer says why; resumed, it is", async () => {
    const { client, box } = fixture;
    await ok(client, "suspend_box", { boxId: box.id });
    const refused = await rest<{ error?: { code: string } }>("GET", `/v1/boxes/${box.id}/folder`);
    expect([refused.status, refused.body.error?.code]).toEqual([409, "failed_precondition"]);
    await ok(client, "resume_box", { boxId: box.id });
    expect((await rest("GET", `/v1/boxes/${box.id}/folder`)).status).toBe(200);
  });

  it("when jobs ran, then the box's jobs are listed newest first with their status", async () => {
    const { client, box } = fixture;
    const first = await ok<{ job: Job }>(client, "start_job", { boxId: box.id, name: "first", cmd: "echo one" });
    await ok(client, "job_wait", { boxId: box.id, jobId: first.job.id, timeoutSeconds: 30 });
    const second = await ok<{ job: Job }>(client, "start_job", { boxId: box.id, name: "second", cmd: "sleep 30" });
    const listed = await rest<{ jobs: Job[] }>("GET", `/v1/boxes/${box.id}/jobs`);
    expect(listed.body.jobs.map((job) => [job.id, job.status])).toEqual([
      [second.job.id, "running"],
      [first.job.id, "succeeded"],
    ]);
    expect((await rest<{ jobs: Job[] }>("GET", `/v1/boxes/${box.id}/jobs?limit=1`)).body.jobs).toHaveLength(1);
  });

  it("when another account asks for the box's folder or jobs, then it is not found and learns nothing", async () => {
    const { stack, box } = fixture;
    const keyB = await stack.createKey({ accountId: "acct-browse-b", scopes: allScopes });
    const restB = restClient(stack.baseUrl, keyB);
    for (const ref of [box.id, box.name]) {
      expect((await restB("GET", `/v1/boxes/${ref}/folder?path=/data/home`)).status).toBe(404);
      expect((await restB("GET", `/v1/boxes/${ref}/jobs`)).status).toBe(404);
    }
    const reader = await stack.createKey({ scopes: ["boxes:read"] });
    expect((await restClient(stack.baseUrl, reader)("GET", `/v1/boxes/${box.id}/jobs`)).status).toBe(200);
  });
});
