/**
 * The cookie a private http port keeps its access token in (set by a first visit with ?accessToken=). Every
 * published port of a node is served on the same host name, and browsers keep cookies by host, not by port: a
 * cookie one port sets reaches every other port of the host. So the service's cookies are the service's alone:
 *   - named `bancada_port_<portId>` (the port's random id: one port's cookie is never another's), HttpOnly, so a
 *     page's script can neither read nor replace it;
 *   - a box's answer may never set, replace or expire one: its Set-Cookie headers for any `bancada_port_` name are
 *     dropped (the cookie of another box's private port could otherwise be tossed from a public port);
 *   - never forwarded to a box (the request keeps only the box's own cookies);
 *   - when a request carries the name more than once (a script of another port may add one with a longer Path,
 *     which browsers send first), any of them holding the token lets the request in.
 */
import type { IncomingMessage } from "node:http";
import type { BoxPortRow } from "../domain/ports/port-listeners.js";

const cookiePrefix = "bancada_port_";

/** The Set-Cookie header of a private port's first visit with its token. */
export function tokenCookie(row: BoxPortRow, token: string): string {
  return `${cookiePrefix}${row.id}=${token}; Path=/; HttpOnly; SameSite=Lax`;
}

/** Every value the request carries for this port's cookie. */
export function tokenCookies(row: BoxPortRow, req: IncomingMessage): string[] {
  const name = `${cookiePrefix}${row.id}`;
  return cookiePairs(req.headers.cookie)
    .filter(([key]) => key === name)
    .map(([, value]) => value);
}

/** The request's Cookie header without the service's cookies (null: nothing left for the box). */
export function boxCookies(req: IncomingMessage): string | null {
  const kept = cookiePairs(req.headers.cookie).filter(([name]) => !isServiceCookie(name));
  return kept.length ? kept.map(([name, value]) => `${name}=${value}`).join("; ") : null;
}

/** One Set-Cookie value of a box's answer that sets one of the service's cookies. */
export function setsServiceCookie(value: string): boolean {
  const at = value.indexOf("=");
  return isServiceCookie(at >= 0 ? value.slice(0, at) : value);
}

/** Browsers compare names exactly, but a lenient one (or a proxy on the way) might not: any case is refused. */
function isServiceCookie(name: string): boolean {
  return name.trim().toLowerCase().startsWith(cookiePrefix);
}

function cookiePairs(header: string | undefined): [string, string][] {
  const out: [string, string][] = [];
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0) out.push([part.slice(0, at).trim(), part.slice(at + 1).trim()]);
  }
  return out;
}
