/** The limits (docs/drafts.md): the product contract's, plus those this service chose where it is silent. */
export const limits = {
  pageMax: 50,
  pageDefault: 20,
  captionMax: 2_200,
  previewMax: 500,
  assetsMax: 20,
  accountsMax: 50,
  accountIdMax: 85,
  /** Chosen here: one image or short video per asset. */
  assetBytesMax: 10 * 1024 * 1024,
  filenameMax: 255,
  workspaceNameMax: 100,
  personIdMax: 200,
  pathMax: 4_096,
  removeAssetsMax: 20,
  /** The revision column is a Postgres integer. */
  revisionMax: 2_147_483_647,
} as const;

const day = 24 * 3600 * 1000;

/** How long finished work is kept: idempotency records at least 7 days (docs/README.md), the rest as long. */
export const retention = {
  requestsMs: 7 * day,
  finishedJobsMs: 7 * day,
  publishedEventsMs: 7 * day,
  /** An unreferenced blob younger than this may belong to an upload that has not committed yet. */
  orphanBlobGraceMs: 3600 * 1000,
} as const;
