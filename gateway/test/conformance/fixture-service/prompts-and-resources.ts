/** The conformance suite's prompts and resources, declared as any service declares them. */
import { DomainError, ErrorCode } from "@bancada/contracts";
import { defineResource, type PromptDefinition, type ResourceDefinition } from "@bancada/service-kit";
import { onePixelPng } from "./media.js";
import { askingPrompt } from "./asking-tools.js";

const user = (content: unknown) => ({ role: "user", content });

export function fixturePrompts(): PromptDefinition[] {
  return [
    askingPrompt,
    {
      name: "test_simple_prompt",
      description: "A simple prompt without arguments.",
      arguments: [],
      scope: "docs:read",
      render: async () => ({ messages: [user({ type: "text", text: "This is a simple prompt for testing." })] }),
    },
    {
      name: "test_prompt_with_arguments",
      description: "A prompt with two required arguments.",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      scope: "docs:read",
      render: async (_ctx, args) => ({
        messages: [user({ type: "text", text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` })],
      }),
      complete: {
        arg1: async (_ctx, value) => {
          const values = ["paris", "park", "party", "test", "testing"].filter((candidate) => candidate.startsWith(value));
          return { values, total: values.length };
        },
      },
    },
    {
      name: "test_prompt_with_embedded_resource",
      description: "A prompt that embeds the resource it is given.",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
      scope: "docs:read",
      render: async (_ctx, args) => ({
        messages: [
          user({
            type: "resource",
            resource: { uri: args.resourceUri, mimeType: "text/plain", text: "Embedded resource content for testing." },
          }),
          user({ type: "text", text: "Please process the embedded resource above." }),
        ],
      }),
    },
    {
      name: "test_prompt_with_image",
      description: "A prompt with an image.",
      arguments: [],
      scope: "docs:read",
      render: async () => ({
        messages: [
          user({ type: "image", data: onePixelPng, mimeType: "image/png" }),
          user({ type: "text", text: "Please analyze the image above." }),
        ],
      }),
    },
  ];
}

/** A resource of one fixed URI, listed and read. */
function fixed(uri: string, name: string, mimeType: string, contents: { text: string } | { blob: string }): ResourceDefinition {
  return defineResource({
    name,
    uriTemplate: uri,
    description: `The ${name} fixture.`,
    mimeType,
    scope: "docs:read",
    list: async () => ({ resources: [{ uri, name, mimeType }] }),
    read: async () => [{ uri, mimeType, ...contents }],
  });
}

export function fixtureResources(): ResourceDefinition[] {
  return [
    fixed("test://static-text", "static-text", "text/plain", { text: "This is the content of the static text resource." }),
    fixed("test://static-binary", "static-binary", "image/png", { blob: onePixelPng }),
    // the resource the subscription scenarios watch; test_update_watched_resource says it changed (tools.ts)
    fixed("test://watched-resource", "watched-resource", "text/plain", { text: "A resource that changes when asked to." }),
    defineResource({
      name: "template-data",
      uriTemplate: "test://template/{id}/data",
      description: "Data for the id in the URI.",
      mimeType: "application/json",
      scope: "docs:read",
      read: async (_ctx, uri, { id }) => {
        if (!id) throw new DomainError(ErrorCode.notFound, `No resource at ${uri}.`);
        return [{ uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }];
      },
      complete: { id: async (_ctx, value) => ({ values: ["123", "456", "789"].filter((id) => id.startsWith(value)) }) },
    }),
  ];
}
