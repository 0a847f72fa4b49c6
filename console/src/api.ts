/**
 * The one way the console talks to Bancada: the REST APIs of this origin, with the signed-in key as a bearer
 * token. The key lives in sessionStorage only (gone when the tab closes) and is never put back on screen.
 */
const keyItem = "bancada.apiKey";

export interface ApiErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.details = body.details;
  }
}

type SignedOutListener = (reason: "revoked" | "signed-out") => void;
const listeners = new Set<SignedOutListener>();

export function onSignedOut(listener: SignedOutListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function storedKey(): string | null {
  return sessionStorage.getItem(keyItem);
}

export function storeKey(key: string): void {
  sessionStorage.setItem(keyItem, key);
}

export function signOut(reason: "revoked" | "signed-out" = "signed-out"): void {
  sessionStorage.removeItem(keyItem);
  for (const listener of listeners) listener(reason);
}

export function newRequestId(): string {
  return crypto.randomUUID();
}

/**
 * Calls a REST route (a Blob body goes as its bytes, anything else as JSON); an error answer becomes an ApiError.
 * A 401 means the key stopped working: sign out.
 */
export function api<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  return request<T>(storedKey(), method, path, body, headers);
}

/** The session of a key not stored yet (sign-in): a refusal does not sign anyone out. */
export function sessionOf<T>(key: string): Promise<T> {
  return request<T>(key, "GET", "/v1/session", undefined, {}, false);
}

async function request<T>(
  key: string | null,
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string>,
  signOutOn401 = true,
): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: {
      accept: "application/json",
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body === undefined
        ? {}
        : { "content-type": body instanceof Blob ? body.type || "application/octet-stream" : "application/json" }),
      ...headers,
    },
    // a file goes as its own bytes (an asset upload); anything else as JSON
    ...(body === undefined ? {} : { body: body instanceof Blob ? body : JSON.stringify(body) }),
    credentials: "omit",
    cache: "no-store",
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const parsed: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const error = (parsed as { error?: ApiErrorBody } | undefined)?.error ?? { code: "internal", message: `HTTP ${response.status}` };
    if (response.status === 401 && key && signOutOn401) signOut("revoked");
    throw new ApiError(response.status, error);
  }
  return parsed as T;
}

/**
 * A route's bytes (an asset's content) as a data: URL, for an <img> that cannot send the key itself; the CSP
 * allows data: images and nothing else from outside this origin.
 */
export async function dataUrlOf(path: string): Promise<string> {
  const key = storedKey();
  const response = await fetch(path, {
    headers: key ? { authorization: `Bearer ${key}` } : {},
    credentials: "omit",
    cache: "no-store",
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const blob = await response.blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
    reader.readAsDataURL(blob);
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Every page of a cursor-paged list (`nextCursor` null or absent at the end), up to `maxPages`. */
export async function allPages<T, K extends string>(path: string, field: K, maxPages = 40): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null | undefined;
  for (let page = 0; page < maxPages; page++) {
    const separator = path.includes("?") ? "&" : "?";
    const url = cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path;
    const result = await api<Record<K, T[]> & { nextCursor?: string | null }>("GET", url);
    items.push(...result[field]);
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return items;
}
