/**
 * The OAuth consent page's requests: the same origin with its cookies (the authorization server binds the request
 * to this browser with a cookie on the consent URL's path), and the signed-in key for the approval.
 */
import { ApiError, storedKey, type ApiErrorBody } from "./api";
import type { JsonAnswer, JsonBody } from "./api-answers";

// the gateway's consent routes, as they declare their answers and body (api-types.ts)
export type ConsentDetails = JsonAnswer<"/oauth/consent/{uid}/details", "get">;
export type Approval = JsonBody<"/oauth/consent/{uid}/approve", "post">;
type Redirect = JsonAnswer<"/oauth/consent/{uid}/approve", "post">;

/** The uid in /oauth/consent/<uid>, when this page is the consent page. */
export function consentUid(pathname = window.location.pathname): string | null {
  return /^\/oauth\/consent\/([A-Za-z0-9_-]{1,64})\/?$/.exec(pathname)?.[1] ?? null;
}

export function consentDetails(uid: string): Promise<ConsentDetails> {
  return call<ConsentDetails>("GET", `/oauth/consent/${uid}/details`, undefined, false);
}

/** Approve (with the signed-in key) or deny: the answer is where the browser goes next, back to the client. */
export async function answerConsent(uid: string, approval: Approval | "deny"): Promise<string> {
  const { redirectTo } =
    approval === "deny"
      ? await call<JsonAnswer<"/oauth/consent/{uid}/deny", "post">>("POST", `/oauth/consent/${uid}/deny`, undefined, false)
      : await call<Redirect>("POST", `/oauth/consent/${uid}/approve`, approval, true);
  return redirectTo;
}

async function call<T>(method: string, path: string, body: unknown, withKey: boolean): Promise<T> {
  const key = withKey ? storedKey() : null;
  const response = await fetch(path, {
    method,
    headers: {
      accept: "application/json",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    credentials: "same-origin",
    cache: "no-store",
  });
  const parsed = (await response.json().catch(() => undefined)) as (T & { error?: ApiErrorBody }) | undefined;
  if (!response.ok) throw new ApiError(response.status, parsed?.error ?? { code: "internal", message: `HTTP ${response.status}` });
  return parsed as T;
}
