import type { DraftsDb } from "../db/client.js";
import type { BlobStore } from "../assets/blob-store.js";

/** What the use cases share: the database, the blob store, and a nudge for the submission workers. */
export interface DraftsDeps {
  db: DraftsDb;
  blobs: BlobStore;
  /** Called after a submission commits, so a local worker picks it up at once instead of at its next poll. */
  submitted: () => void;
}

/** A use case's context: the deps and who acts. Workspaces are scoped by `accountId`, roles by `personId`. */
export interface DraftsContext extends DraftsDeps {
  accountId: string;
  personId: string;
}
