/**
 * What the `bancada` command needs to know to run this service, kept here rather than in the command (as boxes'
 * command.ts): the variables it validates at start for docs (merged into its one environment schema, so a bad value
 * stops the start with the others) and the options it adds to every service's.
 */
import { envFlag, envList } from "@bancada/service-kit";
import type { DocsServiceOptions } from "./service.js";

export const docsEnvFields = {
  /** Accounts allowed to change the shared corpus over REST, comma-separated. */
  DOCS_INGEST_ACCOUNTS: envList,
  /** Load the demo corpus into an empty corpus (always on in the embedded mode). */
  DOCS_DEMO_CORPUS: envFlag,
};

/** The command's environment as docs reads it: its own variables, already parsed by `docsEnvFields`. */
export interface DocsCommandEnv {
  DOCS_INGEST_ACCOUNTS?: unknown;
  DOCS_DEMO_CORPUS?: unknown;
  [variable: string]: unknown;
}

/** The options the command gives docs beyond every service's. */
export function docsCommandOptions(
  env: DocsCommandEnv,
  { embedded }: { embedded: boolean },
): Pick<DocsServiceOptions, "ingestAccounts" | "demoCorpus"> {
  // the command validated these with docsEnvFields: a list of accounts and a flag
  const ingestAccounts = Array.isArray(env.DOCS_INGEST_ACCOUNTS) ? env.DOCS_INGEST_ACCOUNTS.map(String) : [];
  // the demo corpus fills an empty corpus in the embedded mode, so a new user can try the tools at once
  return { ingestAccounts, demoCorpus: env.DOCS_DEMO_CORPUS === true || embedded };
}
