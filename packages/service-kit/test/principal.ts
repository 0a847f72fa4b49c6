/** The caller the tool-host tests sign calls for: a read-only key of one account with the docs:read scope. */
import type { Principal } from "@bancada/contracts";

export const docsReader: Principal = {
  keyId: "k",
  accountId: "a",
  personId: "p",
  agentId: "g",
  scopes: ["docs:read"],
  allowWrites: false,
  allowedBoardIds: null,
  profile: "full",
};
