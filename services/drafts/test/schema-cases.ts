/**
 * Edge cases for the fixed schemas of sosoapi_list_content_drafts (docs/drafts.md#tools): each value is
 * checked by Ajv with the contract's JSON Schema and by our zod schema, and both must agree.
 */
import fixture from "./fixtures/seed-002.json" with { type: "json" };

const id = "44444444-4444-4444-8444-444444444444";
const ws = "11111111-1111-4111-8111-111111111111";

export const uuids = [
  ws,
  ws.toUpperCase(),
  `urn:uuid:${ws}`,
  `URN:UUID:${ws}`,
  "00000000-0000-0000-0000-000000000000",
  "11111111-1111-1111-1111-111111111111",
  "11111111111141118111111111111111",
  "11111111-1111-4111-8111-11111111111",
  "{11111111-1111-4111-8111-111111111111}",
  "11111111-1111-4111-8111-11111111111g",
  `${ws}\n`,
  ` ${ws}`,
  "",
];

export const dateTimes = [
  "2099-01-15T08:30:00Z",
  "2024-02-29T00:00:00Z",
  "2023-02-29T00:00:00Z",
  "1900-02-29T00:00:00Z",
  "2000-02-29T00:00:00Z",
  "0000-02-29T00:00:00Z",
  "2100-02-29T00:00:00Z",
  "2024-01-01T00:00Z",
  "2024-01-01t00:00:00Z",
  "2024-01-01T00:00:00z",
  "2024-01-01T00:00:00+05:30",
  "2024-01-01T00:00:00+0530",
  "2024-01-01T00:00:00+05",
  "2024-01-01T00:00:00+24:00",
  "2024-01-01T00:00:00-23:59",
  "2024-01-01T24:00:00Z",
  "2024-01-01T23:60:00Z",
  "2024-12-31T23:59:60Z",
  "2024-01-01T00:00:00.123456789Z",
  "2024-01-01T00:00:00.Z",
  "2024-01-01 00:00:00Z",
  "2024-13-01T00:00:00Z",
  "2024-04-31T00:00:00Z",
  "2024-04-30T00:00:00Z",
  "2024-01-01T00:00:00",
  "２０２４-01-01T00:00:00Z",
  "2024-01-01T00:00:00Z\n",
  "10000-01-01T00:00:00Z",
  "",
];

export function inputCases(): unknown[] {
  const cursor = (updated_at: unknown, cursorId: unknown = id) => ({ workspace_id: ws, cursor: { updated_at, id: cursorId } });
  return [
    fixture.exampleCall.arguments,
    ...uuids.map((value) => ({ workspace_id: value })),
    ...dateTimes.map((value) => cursor(value)),
    ...uuids.map((value) => cursor("2024-01-01T00:00:00Z", value)),
    ...[1, 50, 0, 51, 20.0, 1.5, "20", null, -1, true, 1e1].map((limit) => ({ workspace_id: ws, limit })),
    { workspace_id: ws, cursor: null },
    { workspace_id: ws, cursor: {} },
    { workspace_id: ws, cursor: { updated_at: "2024-01-01T00:00:00Z" } },
    { workspace_id: ws, cursor: { updated_at: "2024-01-01T00:00:00Z", id, extra: 1 } },
    { workspace_id: ws, cursor: [] },
    { workspace_id: ws, cursor: "2024-01-01T00:00:00Z" },
    { workspace_id: ws, extra: true },
    { workspace_id: 5 },
    { workspace_id: null },
    {},
    [],
    null,
    "x",
  ];
}

export function outputCases(): unknown[] {
  const example = fixture.exampleResult;
  const item = example.drafts[0]!;
  const withItem = (patch: Record<string, unknown>) => ({ ...example, drafts: [{ ...item, ...patch }] });
  const without = (key: string) => {
    const copy: Record<string, unknown> = { ...item };
    delete copy[key];
    return { ...example, drafts: [copy] };
  };
  const emoji = "😀";
  return [
    example,
    ...[0, 1, 9_007_199_254_740_991, 9_007_199_254_740_992, 1.5, -1, "1"].map((revision) => withItem({ revision })),
    ...["draft", "submitting", "submitted", "archived", "DRAFT"].map((state) => withItem({ state })),
    ...["a".repeat(500), "a".repeat(501), emoji.repeat(500), emoji.repeat(501), "", `a\u0000b`].map((caption_preview) =>
      withItem({ caption_preview }),
    ),
    ...[0, 20, 21, -1, 2.5].map((asset_count) => withItem({ asset_count })),
    ...[0, 50, 51].map((account_count) => withItem({ account_count })),
    ...[null, ...uuids, "person-a", 7].map((created_by) => withItem({ created_by })),
    ...[null, ws, "person-a"].map((updated_by) => withItem({ updated_by })),
    ...dateTimes.map((created_at) => withItem({ created_at })),
    ...dateTimes.map((updated_at) => withItem({ updated_at })),
    ...Object.keys(item).map(without),
    withItem({ extra: 1 }),
    { ...example, drafts: Array.from({ length: 50 }, () => item), returned_count: 50 },
    { ...example, drafts: Array.from({ length: 51 }, () => item), returned_count: 50 },
    ...[
      null,
      { updated_at: "2099-01-15T08:30:00Z", id },
      {},
      { updated_at: "2023-02-29T00:00:00Z", id },
      { updated_at: "2099-01-15T08:30:00Z", id, x: 1 },
    ].map((next_cursor) => ({ ...example, next_cursor })),
    ...[0, 50, 51, -1, 1.5].map((returned_count) => ({ ...example, returned_count })),
    { drafts: [], returned_count: 0 },
    { drafts: [], next_cursor: null },
    { next_cursor: null, returned_count: 0 },
    { ...example, extra: 1 },
    { ...example, drafts: [null] },
    { ...example, drafts: [[]] },
    { ...example, drafts: {} },
  ];
}
