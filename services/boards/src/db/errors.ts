/** Recognising PostgreSQL errors behind Prisma's raw-query errors (P2010 carries the SQLSTATE in meta.code). */
export function sqlState(error: unknown): string | undefined {
  const meta = (error as { meta?: { code?: unknown } } | null)?.meta;
  if (typeof meta?.code === "string") return meta.code;
  const match = /Code: `([0-9A-Z]{5})`/.exec(String((error as { message?: unknown } | null)?.message ?? ""));
  return match?.[1];
}

export const uniqueViolation = "23505";
