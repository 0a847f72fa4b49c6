/**
 * Imported first by every benchmark: the benchmarks measure the path over real NATS, and testkit falls back
 * to its in-process bus when NATS_URL is unset. Same for the database: the local server unless told otherwise.
 */
process.env.NATS_URL ??= "nats://127.0.0.1:4222";
process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";

export {};
