export const scopes = [
  "scripts:read",
  "scripts:write",
  "boxes:read",
  "boxes:write",
  "boxes:delete",
  "boxes:exec",
  "images:read",
  "images:write",
  "drafts:read",
  "drafts:write",
  "boards:read",
  "boards:write",
  "docs:read",
  "audit:read",
  // the person's own API keys, managed from the web console (GET/POST /v1/keys on the gateway)
  "keys:read",
  "keys:write",
] as const;
export type Scope = (typeof scopes)[number];

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}

/**
 * What a tool declares when any key of the account may call it, whatever its scopes (a tool that only reports
 * on the caller's own account, such as its usage). Never a scope a key can hold: `isScope` refuses it.
 */
export const noScope = "none" as const;
/** A tool's declared scope: one a key must hold, or `noScope`. */
export type ToolScope = Scope | typeof noScope;
