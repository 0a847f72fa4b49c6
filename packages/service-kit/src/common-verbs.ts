/**
 * The actions every domain has (create, list, get, search, update, delete), concept → the words people use for
 * it; the concept's own name is one of its words. Every service's catalog carries them beside its own words
 * (tool-host.ts), so the gateway's tool search reads a question only with what the services declare and holds no
 * vocabulary of its own.
 */
import type { Vocabulary } from "@bancada/contracts";

const commonVerbs: Vocabulary = {
  create: ["add", "new", "make", "save", "insert", "put", "compose", "start", "begin"],
  search: ["find", "look", "lookup", "query", "locate", "seek", "about", "matching"],
  list: ["show", "browse", "all", "enumerate", "overview", "which"],
  get: ["read", "fetch", "view", "see", "retrieve", "load", "detail", "inspect", "one", "single", "state", "full", "open"],
  delete: ["remove", "destroy", "erase", "wipe", "kill", "purge", "teardown", "good"],
  update: ["edit", "change", "modify", "rename", "rewrite", "replace", "fix", "set", "overwrite", "retitle"],
};

/** A service's vocabulary with the common verbs added (a concept both name keeps the words of both). */
export function withCommonVerbs(vocabulary: Vocabulary = {}): Vocabulary {
  const merged: Vocabulary = { ...vocabulary };
  for (const [concept, words] of Object.entries(commonVerbs)) merged[concept] = [...new Set([...(vocabulary[concept] ?? []), ...words])];
  return merged;
}
