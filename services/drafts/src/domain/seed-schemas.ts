/**
 * The product contract's JSON Schemas of sosoapi_list_content_drafts (docs/drafts.md#tools), verbatim: the tool advertises them
 * as they are. The zod schemas in schemas.ts accept and produce the same values (a test proves it).
 */

/** The page cursor: `cursor` in, `next_cursor` out (the same object, or null). */
const pageCursor: Record<string, unknown> = {
  anyOf: [
    {
      type: "object",
      properties: {
        updated_at: {
          type: "string",
          format: "date-time",
          pattern:
            "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$",
        },
        id: {
          type: "string",
          format: "uuid",
        },
      },
      required: ["updated_at", "id"],
      additionalProperties: false,
    },
    {
      type: "null",
    },
  ],
};

export const listDraftsInputJsonSchema: Record<string, unknown> = {
  type: "object",
  properties: {
    workspace_id: {
      type: "string",
      format: "uuid",
    },
    limit: {
      type: "integer",
      minimum: 1,
      maximum: 50,
    },
    cursor: pageCursor,
  },
  required: ["workspace_id"],
  additionalProperties: false,
};

export const listDraftsOutputJsonSchema: Record<string, unknown> = {
  type: "object",
  properties: {
    drafts: {
      maxItems: 50,
      type: "array",
      items: {
        type: "object",
        properties: {
          id: {
            type: "string",
            format: "uuid",
          },
          workspace_id: {
            type: "string",
            format: "uuid",
          },
          revision: {
            type: "integer",
            exclusiveMinimum: 0,
            maximum: 9007199254740991,
          },
          state: {
            type: "string",
            enum: ["draft", "submitting", "submitted"],
          },
          caption_preview: {
            type: "string",
            maxLength: 500,
          },
          asset_count: {
            type: "integer",
            minimum: 0,
            maximum: 20,
          },
          account_count: {
            type: "integer",
            minimum: 0,
            maximum: 50,
          },
          created_by: {
            anyOf: [
              {
                type: "string",
                format: "uuid",
              },
              {
                type: "null",
              },
            ],
          },
          updated_by: {
            anyOf: [
              {
                type: "string",
                format: "uuid",
              },
              {
                type: "null",
              },
            ],
          },
          created_at: {
            type: "string",
            format: "date-time",
            pattern:
              "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$",
          },
          updated_at: {
            type: "string",
            format: "date-time",
            pattern:
              "^(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|(?:02)-(?:0[1-9]|1\\d|2[0-8])))T(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d+)?)?(?:Z|([+-](?:[01]\\d|2[0-3]):[0-5]\\d)))$",
          },
        },
        required: [
          "id",
          "workspace_id",
          "revision",
          "state",
          "caption_preview",
          "asset_count",
          "account_count",
          "created_by",
          "updated_by",
          "created_at",
          "updated_at",
        ],
        additionalProperties: false,
      },
    },
    next_cursor: pageCursor,
    returned_count: {
      type: "integer",
      minimum: 0,
      maximum: 50,
    },
  },
  required: ["drafts", "next_cursor", "returned_count"],
  $schema: "http://json-schema.org/draft-07/schema#",
  additionalProperties: false,
};
