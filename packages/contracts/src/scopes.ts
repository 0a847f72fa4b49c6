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
] as const;
export type Scope = (typeof scopes)[number];

export function isScope(value: string): value is Scope {
  return (scopes as readonly string[]).includes(value);
}
