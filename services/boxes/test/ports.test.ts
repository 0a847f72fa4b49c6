/**
 * publish_port on real boxes: servers inside the box (node, started as jobs) reached through the service's proxy
 * while the box keeps no host network — http public and private (bearer, the ?accessToken= cookie, 401/403), a
 * real WebSocket upgrade, tcp with its token line, 502 when nothing listens, the port's edges, a new token on
 * republish, unpublish over REST and with the box, a sleeping box woken, and account B reaching nothing of A's.
 */
import { createHash, randomInt } from "node:crypto";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, startStack, type Stack } from "@bancada/e2e";
import { boxesTestStack, describeBoxes, type BoxesTestStack } from "./stack.js";
import { allScopes, fails, ok, restClient, run, until, type Box } from "./helpers.js";

interface Published {
  port: { id: string; url: string; host: string; hostPort: number; port: number; protocol: string; visibility: string };
  accessToken: string | null;
  usage: string;
}

/**
 * An http server (answers with what it saw; /set-cookie?<cookie> also sets that cookie and one of its own) that also
 * takes WebSocket upgrades (echoes one text frame; /set-cookie?<cookie> sets it in the 101), the same http server
 * on 8082, and a tcp echo server.
 */
const servers = String.raw`
const http = require("http"), net = require("net"), crypto = require("crypto");
const cookieOf = (url) => url.startsWith("/set-cookie?") ? decodeURIComponent(url.slice("/set-cookie?".length)) : null;
const answer = (req, res) => {
  if (cookieOf(req.url)) res.setHeader("Set-Cookie", [cookieOf(req.url), "own=1; Path=/"]);
  res.end(JSON.stringify({ path: req.url, method: req.method, headers: req.headers }));
};
const web = http.createServer(answer);
http.createServer(answer).listen(8082, "127.0.0.1");
web.on("upgrade", (req, socket) => {
  const accept = crypto.createHash("sha1").update(req.headers["sec-websocket-key"] + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest("base64");
  const cookie = cookieOf(req.url) ? "Set-Cookie: " + cookieOf(req.url) + "\r\nSet-Cookie: own=1\r\n" : "";
  socket.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" + cookie + "Sec-WebSocket-Accept: " + accept + "\r\n\r\n");
  socket.on("data", (frame) => {
    const length = frame[1] & 127, mask = frame.subarray(2, 6), data = Buffer.from(frame.subarray(6, 6 + length));
    for (let i = 0; i < data.length; i++) data[i] ^= mask[i % 4];
    const reply = Buffer.concat([Buffer.from("echo:"), data]);
    socket.write(Buffer.concat([Buffer.from([0x81, reply.length]), reply]));
  });
});
web.listen(8080, "127.0.0.1");
net.createServer((socket) => socket.pipe(socket)).listen(9000, "0.0.0.0");
`;

function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

const refused = (url: string) =>
  get(url).then(
    () => false,
    (error: NodeJS.ErrnoException) => error.code === "ECONNREFUSED",
  );

/** A WebSocket handshake and one masked text frame; resolves with the 101's accept and cookie headers and the echoed text. */
function webSocket(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; accept: string; echoed: string; cookies: string[] }> {
  const key = createHash("md5").update(String(Math.random())).digest("base64");
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      agent: false,
      headers: { ...headers, Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": key },
    });
    req.on("upgrade", (res, socket) => {
      const payload = Buffer.from("hi");
      const mask = Buffer.from([1, 2, 3, 4]);
      socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, payload.map((byte, i) => byte ^ mask[i % 4]!)]));
      socket.once("data", (frame: Buffer) => {
        socket.destroy();
        resolve({
          status: res.statusCode ?? 0,
          accept: String(res.headers["sec-websocket-accept"]),
          echoed: frame.subarray(2).toString("utf8"),
          cookies: res.headers["set-cookie"] ?? [],
        });
      });
    });
    req.on("response", (res) => resolve({ status: res.statusCode ?? 0, accept: "", echoed: "", cookies: [] }));
    req.on("error", reject);
    req.end();
  });
}

function tcp(host: string, port: number, send: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host, () => socket.write(send));
    let got = "";
    socket.on("data", (chunk: Buffer) => {
      got += chunk.toString("utf8");
      if (got.includes("hello")) socket.end();
    });
    socket.on("close", () => resolve(got));
    socket.on("error", reject);
    setTimeout(() => socket.destroy(), 5_000);
  });
}

describeBoxes("published ports", () => {
  let boxes: BoxesTestStack;
  let stack: Stack;
  let client: Client;
  let key: string;
  let box: Box;

  beforeAll(async () => {
    const first = 20_000 + randomInt(0, 400) * 100;
    boxes = boxesTestStack({ portRange: { first, last: first + 99 }, portsBindHost: "127.0.0.1", portsHost: "127.0.0.1" });
    stack = await startStack({ services: { boxes: boxes.factory } });
    key = await stack.createKey({ scopes: allScopes });
    client = await connectClient(stack.mcpUrl, key);
    box = (await ok(client, "create_box", { name: "ports" })).box;
    await ok(client, "write_file", { boxId: box.id, path: "servers.js", content: servers });
    await ok(client, "start_job", { boxId: box.id, cmd: "node servers.js" });
    await until(
      () =>
        run(
          client,
          box.id,
          "(exec 3<>/dev/tcp/127.0.0.1/8080 && exec 4<>/dev/tcp/127.0.0.1/9000 && exec 5<>/dev/tcp/127.0.0.1/8082) 2>/dev/null && echo up",
        ),
      (result) => result.stdout.trim() === "up",
      20_000,
    );
  });
  afterAll(async () => {
    await client?.close();
    await stack?.stop();
    await boxes?.cleanup();
  });

  const publish = (args: Record<string, unknown>) => ok<Published>(client, "publish_port", { boxId: box.id, ...args });

  it("when an http port is published public, then its URL reaches the box's server with forwarded headers, and the box still has no host network", async () => {
    const published = await publish({ port: 8080, visibility: "public" });
    expect(published.accessToken).toBeNull();
    expect(published.port).toMatchObject({ port: 8080, protocol: "http", visibility: "public" });
    expect(published.port.url).toBe(`http://127.0.0.1:${published.port.hostPort}/`);
    const answer = await get(`${published.port.url}some/path?x=1`);
    expect(answer.status).toBe(200);
    const seen = JSON.parse(answer.body) as { path: string; headers: Record<string, string> };
    expect(seen.path).toBe("/some/path?x=1");
    expect(seen.headers["x-forwarded-for"]).toBe("127.0.0.1");
    // The proxy's listener is on the host's loopback; the box's loopback is its own.
    const inside = await run(
      client,
      box.id,
      `(exec 3<>/dev/tcp/127.0.0.1/${published.port.hostPort}) 2>/dev/null && echo reached || echo refused`,
    );
    expect(inside.stdout.trim()).toBe("refused");
  });

  it("when an http port is private, then no token is 401, a wrong one 403, the bearer token or the ?accessToken= cookie 200, and neither reaches the box", async () => {
    const published = await publish({ port: 8080 });
    expect(published.port.visibility).toBe("private");
    const token = published.accessToken!;
    expect(token).toMatch(/^bxp_/);
    const stored = await boxes.service().db.boxPort.findUniqueOrThrow({ where: { id: published.port.id } });
    expect(stored.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(token);
    const url = published.port.url;

    const none = await get(url);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).error).toMatchObject({ code: "unauthenticated" });
    expect(none.headers["www-authenticate"]).toContain("Bearer");
    expect((await get(url, { Authorization: "Bearer bxp_wrong" })).status).toBe(403);

    const bearer = await get(url, { Authorization: `Bearer ${token}` });
    expect(bearer.status).toBe(200);
    expect(JSON.parse(bearer.body).headers.authorization).toBeUndefined();

    const first = await get(`${url}page?accessToken=${token}&keep=1`);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe("/page?keep=1");
    const cookie = String((first.headers["set-cookie"] as string[])[0]).split(";")[0]!;
    expect(String((first.headers["set-cookie"] as string[])[0])).toContain("HttpOnly");
    expect((await get(`${url}page?accessToken=bxp_wrong`)).status).toBe(403);
    const withCookie = await get(`${url}page?keep=1`, { Cookie: `${cookie}; theirs=1` });
    expect(withCookie.status).toBe(200);
    expect(JSON.parse(withCookie.body).headers.cookie).toBe("theirs=1");
  });

  it("when a WebSocket upgrade goes through a private port, then the handshake and frames pass; without the token it is refused", async () => {
    const published = await publish({ port: 8080 });
    const url = published.port.url;
    const socket = await webSocket(url, { Authorization: `Bearer ${published.accessToken}` });
    expect(socket.status).toBe(101);
    expect(socket.accept).toMatch(/^[A-Za-z0-9+/]{27}=$/);
    expect(socket.echoed).toBe("echo:hi");
    expect((await webSocket(url, {})).status).toBe(401);
  });

  it("when a public port's box sets the cookie of another port (cookies ignore ports), then the proxy drops it, and the other port's own cookie still lets in", async () => {
    const victim = await publish({ port: 8082 });
    const attacker = await publish({ port: 8080, visibility: "public" });
    const name = `bancada_port_${victim.port.id}`;
    const toss = `${attacker.port.url}set-cookie?${encodeURIComponent(`${name}=tossed; Path=/; Max-Age=31536000`)}`;
    const tossed = await get(toss);
    expect(tossed.status).toBe(200);
    expect(tossed.headers["set-cookie"]).toEqual(["own=1; Path=/"]);
    // in any case of the name, and in a WebSocket's 101 too
    const shouted = await get(`${attacker.port.url}set-cookie?${encodeURIComponent(`${name.toUpperCase()}=tossed`)}`);
    expect(shouted.headers["set-cookie"]).toEqual(["own=1; Path=/"]);
    const upgraded = await webSocket(toss, {});
    expect(upgraded.status).toBe(101);
    expect(upgraded.cookies).toEqual(["own=1"]);
    expect(upgraded.echoed).toBe("echo:hi");
    // a script of the other port can still add the name with a longer Path (sent first): the right value lets in
    const first = await get(`${victim.port.url}?accessToken=${victim.accessToken}`);
    const own = String((first.headers["set-cookie"] as string[])[0]).split(";")[0]!;
    expect(own).toBe(`${name}=${victim.accessToken}`);
    for (const cookie of [`${name}=tossed; ${own}`, `${own}; ${name}=tossed`]) {
      const answer = await get(victim.port.url, { Cookie: cookie });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).headers.cookie).toBeUndefined();
    }
    expect((await get(victim.port.url, { Cookie: `${name}=tossed` })).status).toBe(403);
  });

  it("when nothing listens on the published port, then 502 says to start a server there", async () => {
    const published = await publish({ port: 8081, visibility: "public" });
    const answer = await get(published.port.url);
    expect(answer.status).toBe(502);
    expect(JSON.parse(answer.body).error.message).toContain("Nothing answers on port 8081");
  });

  it("when a tcp port is published, then bytes pass; a private one wants its token as the first line", async () => {
    const open = await publish({ port: 9000, protocol: "tcp", visibility: "public" });
    expect(open.port.url).toBe(`tcp://127.0.0.1:${open.port.hostPort}`);
    expect(await tcp("127.0.0.1", open.port.hostPort, "hello")).toBe("hello");
    const closed = await publish({ port: 9000, protocol: "tcp" });
    expect(closed.port.hostPort).toBe(open.port.hostPort);
    expect(await tcp("127.0.0.1", closed.port.hostPort, `${closed.accessToken}\nhello`)).toBe("hello");
    expect(await tcp("127.0.0.1", closed.port.hostPort, "bxp_wrong\nhello")).toContain("private");
  });

  it("when the port is 0 or 65536 it is refused, 1 and 65535 are taken; protocol and visibility are checked", async () => {
    for (const port of [0, 65_536, 1.5]) await fails(client, "publish_port", { boxId: box.id, port }, "invalid_argument");
    await fails(client, "publish_port", { boxId: box.id, port: 80, protocol: "udp" }, "invalid_argument");
    await fails(client, "publish_port", { boxId: box.id, port: 80, visibility: "secret" }, "invalid_argument");
    for (const port of [1, 65_535]) expect((await publish({ port, visibility: "public" })).port.port).toBe(port);
  });

  it("when a port is published again, then its URL stays and the old token stops working", async () => {
    const first = await publish({ port: 8080 });
    const second = await publish({ port: 8080 });
    expect(second.port.url).toBe(first.port.url);
    expect((await get(first.port.url, { Authorization: `Bearer ${first.accessToken}` })).status).toBe(403);
    expect((await get(second.port.url, { Authorization: `Bearer ${second.accessToken}` })).status).toBe(200);
  });

  it("when a box sleeps, then a request to its port wakes it", async () => {
    const published = await publish({ port: 8080, visibility: "public" });
    const service = boxes.service();
    const row = await service.db.box.findUniqueOrThrow({ where: { id: box.id } });
    await service.runtime.driver.suspend({ id: box.id, runtime: row.runtime });
    await service.db.box.update({ where: { id: box.id }, data: { state: "sleeping" } });
    expect((await get(published.port.url)).status).toBe(200);
    expect((await ok(client, "get_box", { boxId: box.id })).box.state).toBe("running");
  });

  it("when a port is unpublished over REST, then it is gone from the list and its listener is closed", async () => {
    const rest = restClient(stack.baseUrl, key);
    const published = await rest<Published>("POST", `/v1/boxes/${box.id}/ports`, { port: 3000, visibility: "public" });
    expect(published.status).toBe(201);
    const listed = await rest<{ ports: { port: number }[] }>("GET", `/v1/boxes/${box.id}/ports`);
    expect(listed.body.ports.map((port) => port.port)).toContain(3000);
    expect((await rest("DELETE", `/v1/boxes/${box.id}/ports/3000`)).status).toBe(200);
    expect(await refused(published.body.port.url)).toBe(true);
    expect((await rest("DELETE", `/v1/boxes/${box.id}/ports/3000`)).status).toBe(404);
  });

  it("when the service restarts, then its published ports are served again at the same URLs", async () => {
    const published = await publish({ port: 8080, visibility: "public" });
    await stack.stopService("boxes");
    expect(await refused(published.port.url)).toBe(true);
    await stack.startService("boxes");
    expect((await get(published.port.url)).status).toBe(200);
  });

  it("when account B tries A's box and ports, then it reaches nothing", async () => {
    const published = await publish({ port: 8080 });
    const keyB = await stack.createKey({ accountId: "acct-b", scopes: allScopes });
    const clientB = await connectClient(stack.mcpUrl, keyB);
    try {
      await fails(clientB, "publish_port", { boxId: box.id, port: 8080 }, "not_found");
      await fails(clientB, "publish_port", { boxId: "ports", port: 8080 }, "not_found");
      const restB = restClient(stack.baseUrl, keyB);
      expect((await restB("GET", `/v1/boxes/${box.id}/ports`)).status).toBe(404);
      expect((await restB("DELETE", `/v1/boxes/${box.id}/ports/8080`)).status).toBe(404);
      const own = (await ok(clientB, "create_box", { name: "b-box" })).box;
      const theirs = await ok<Published>(clientB, "publish_port", { boxId: own.id, port: 8080 });
      expect((await get(published.port.url, { Authorization: `Bearer ${theirs.accessToken}` })).status).toBe(403);
      await ok(clientB, "delete_box", { boxId: own.id, confirm: true });
    } finally {
      await clientB.close();
    }
  });

  it("when the box is deleted, then its ports are unpublished and their listeners closed", async () => {
    const published = await publish({ port: 8080, visibility: "public" });
    await ok(client, "delete_box", { boxId: box.id, confirm: true });
    await until(
      () => refused(published.port.url),
      (gone) => gone,
      10_000,
    );
    expect(await refused(published.port.url)).toBe(true);
    const left = () => boxes.service().db.boxPort.count({ where: { boxId: box.id } });
    expect(await until(left, (count) => count === 0, 10_000)).toBe(0);
  });
});
