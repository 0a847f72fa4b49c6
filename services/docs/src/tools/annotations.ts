/** Every docs tool only reads the shared corpus (docs/docs.md#tools: read-only, idempotent, not destructive, closed world). */
export const readOnlyCorpus = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
