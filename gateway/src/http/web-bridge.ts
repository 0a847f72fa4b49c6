/**
 * Between express and the SDK's web-standard handler. The route has read and parsed the body already, so the
 * `Request` carries only the method, URL, headers and an abort signal (the parsed message travels as
 * `parsedBody`): no second serialisation of the body as the generic Node adapter would do. The `Response` is
 * written back as it comes, streamed when it is SSE (progress notifications, then the result).
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

export function webRequestOf(req: ExpressRequest, signal: AbortSignal, body?: string): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === "content-length" || name === "transfer-encoding" || name === "content-encoding") continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new Request(`http://${req.headers.host ?? "localhost"}${req.originalUrl}`, {
    method: req.method,
    headers,
    signal,
    ...(body !== undefined && body !== "" ? { body } : {}),
  });
}

export async function sendWebResponse(response: globalThis.Response, res: ExpressResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (!response.body) {
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!headers["content-type"]?.startsWith("text/event-stream")) {
    const body = Buffer.from(await response.arrayBuffer());
    headers["content-length"] = String(body.byteLength);
    res.writeHead(response.status, headers).end(body);
    return;
  }
  // No flushHeaders and a cork per chunk: the headers, each event and the end leave in as few socket writes as
  // the stream allows (a plain call's answer is one event, then the end: one write instead of three).
  res.writeHead(response.status, headers);
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => {});
  res.on("close", stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.cork();
      const flowing = res.write(value);
      setImmediate(() => res.uncork());
      if (!flowing && !res.destroyed)
        await new Promise((resolve) => {
          res.once("drain", resolve);
          res.once("close", resolve);
        });
    }
  } catch {
    // the client went away mid-stream: nothing left to write to
  } finally {
    res.off("close", stop);
    res.end();
  }
}
