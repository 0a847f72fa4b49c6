/**
 * The conformance suite's diagnostic tools, declared as any service declares its tools: each result is a small
 * JSON object (the structured result every Bancada tool gives) and `present` adds the content the scenario looks
 * for, so the suite checks the gateway's relaying of content blocks, errors, progress and verbatim schemas.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { DomainError, ErrorCode } from "@bancada/contracts";
import { defineTool, type Tool } from "@bancada/service-kit";
import { onePixelPng, silentWav } from "./media.js";
import { askingTools, askingTools2025 } from "./asking-tools.js";

const readsOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const noInput = z.strictObject({});
const shown = z.object({ shown: z.string() });
const common = { input: noInput, output: shown, annotations: readsOnly, scope: "docs:read", profile: "core" } as const;

const embedded = {
  type: "resource",
  resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." },
} as const;

/** The 2020-12 schema of the json-schema scenario, advertised verbatim ($schema, $defs, $ref, if/then/else kept). */
const schema2020 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  $defs: { address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } },
  properties: {
    name: { type: "string" },
    address: { $ref: "#/$defs/address" },
    contactMethod: { type: "string", enum: ["phone", "email"] },
    phone: { type: "string" },
    email: { type: "string" },
  },
  allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
  if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
  then: { required: ["phone"] },
  else: { required: ["email"] },
  additionalProperties: false,
};

/** The suite's input-required tools that a confirmation answers, and the text each returns once confirmed. */
const confirmationFixtures = [
  ["test_input_required_result_request_state", "state-ok: the request state came back sealed and verified."],
  ["test_input_required_result_tampered_state", "state-ok"],
] as const;

/** `changed` tells the gateways that one of this service's resources changed (the service scope's `resourceChanged`). */
export function fixtureTools(changed: (accountId: string, uri: string) => void = () => {}): Tool[] {
  return [
    defineTool({
      ...common,
      name: "test_update_watched_resource",
      description: "Says that test://watched-resource changed, for the caller's account (subscribers are notified).",
      handler: async (ctx) => {
        changed(ctx.principal.accountId, "test://watched-resource");
        return { shown: "changed" };
      },
    }),
    ...askingTools(),
    ...askingTools2025(),
    defineTool({
      ...common,
      name: "test_simple_text",
      description: "Returns simple text content.",
      handler: async () => ({ shown: "text" }),
      present: () => [{ type: "text", text: "This is a simple text response for testing." }],
    }),
    defineTool({
      ...common,
      name: "test_image_content",
      description: "Returns image content (a 1×1 PNG).",
      handler: async () => ({ shown: "image" }),
      present: () => [{ type: "image", data: onePixelPng, mimeType: "image/png" }],
    }),
    defineTool({
      ...common,
      name: "test_audio_content",
      description: "Returns audio content (a short silent WAV).",
      handler: async () => ({ shown: "audio" }),
      present: () => [{ type: "audio", data: silentWav, mimeType: "audio/wav" }],
    }),
    defineTool({
      ...common,
      name: "test_embedded_resource",
      description: "Returns an embedded text resource.",
      handler: async () => ({ shown: "resource" }),
      present: () => [embedded],
    }),
    defineTool({
      ...common,
      name: "test_multiple_content_types",
      description: "Returns text, an image and an embedded resource.",
      handler: async () => ({ shown: "text, image, resource" }),
      present: () => [
        { type: "text", text: "Multiple content types test:" },
        { type: "image", data: onePixelPng, mimeType: "image/png" },
        {
          type: "resource",
          resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: '{"test":"data","value":123}' },
        },
      ],
    }),
    defineTool({
      ...common,
      name: "test_error_handling",
      description: "Always fails, as a tool error (isError) with its message.",
      handler: async () => {
        throw new DomainError(ErrorCode.failedPrecondition, "This tool intentionally returns an error for testing.");
      },
    }),
    defineTool({
      ...common,
      name: "test_tool_with_progress",
      description: "Reports progress 0, 50 and 100 of 100, 50 ms apart.",
      handler: async (ctx) => {
        for (const progress of [0, 50, 100]) {
          ctx.progress({ progress, total: 100 });
          if (progress < 100) await sleep(50);
        }
        return { shown: "progress" };
      },
    }),
    // The input-required fixtures the gateway's confirmations serve (docs/gateway.md#confirmations): the question, the
    // sealed request state and its refusal when tampered with are the gateway's; the tool runs once the person answers.
    ...confirmationFixtures.map(([name, shownText]) =>
      defineTool({
        ...common,
        name,
        description: "Asks the person to confirm (a confirmation through the client), then returns text.",
        confirmation: { message: "Go ahead with this conformance check?" },
        handler: async () => ({ shown: "text" }),
        present: () => [{ type: "text", text: shownText }],
      }),
    ),
    defineTool({
      name: "json_schema_2020_12_tool",
      description: "Takes a contact whose input schema uses JSON Schema 2020-12 keywords.",
      input: z.record(z.string(), z.unknown()),
      output: z.object({ received: z.record(z.string(), z.unknown()) }),
      jsonSchema: { input: schema2020 },
      annotations: readsOnly,
      scope: "docs:read",
      profile: "core",
      handler: async (_ctx, input) => ({ received: input }),
    }),
  ];
}
