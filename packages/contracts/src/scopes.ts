/**
 * A scope a key may hold: `<domain>:<action>`. Each service owns its own (the `"scopes"` of the `"bancada"` block in
 * its package.json, which its `defineService` declaration reads); the gateway owns `audit:read`, `keys:read` and
 * `keys:write`. The whole set is whatever those declare: no list of them is kept here.
 */
export type Scope = `${string}:${string}`;

/**
 * What a tool declares when any key of the account may call it, whatever its scopes (a tool that only reports
 * on the caller's own account, such as its usage). Never a scope a key can hold (it has no `:`).
 */
export const noScope = "none" as const;
/** A tool's declared scope: one a key must hold, or `noScope`. */
export type ToolScope = Scope | typeof noScope;
