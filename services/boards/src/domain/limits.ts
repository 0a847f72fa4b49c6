/**
 * Limits (docs/boards.md#retention-and-limits). The product contract fixes the page sizes, the proposal
 * limits and the retention windows; the other text and count limits are our decisions. Every limit is
 * enforced and tested at its edge.
 */
export const limits = {
  pageSize: 25,
  proposalPageSize: 50,
  summaryMax: 2_000,
  suggestionsMax: 20,
  reasonMax: 500,
  titleMax: 200,
  descriptionMax: 10_000,
  tagIdsMax: 20,
  boardNameMax: 100,
  boardDescriptionMax: 2_000,
  tagNameMax: 40,
  quadrantTitleMax: 40,
  quadrantSubtitleMax: 80,
  personIdMax: 200,
  cursorMax: 512,
} as const;

const day = 24 * 3600 * 1000;

export const retention = {
  idempotencyMs: 7 * day,
  activityMs: 90 * day,
  closedProposalMs: 90 * day,
} as const;
