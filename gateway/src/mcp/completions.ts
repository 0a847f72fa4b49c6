/**
 * `completion/complete`: the values a person would otherwise look up (a board's id, a box by name), completed by
 * the service that owns the prompt or the resource family, for the caller alone. A prompt argument or template
 * variable nobody completes answers an empty list, as MCP asks; an unknown prompt or template is -32602.
 */
import { ProtocolError, type CompleteRequestParams, type CompleteResult } from "@modelcontextprotocol/server";
import { permits, type CallRequest } from "@bancada/contracts";
import type { CallOptions, CallRouter } from "../call-router.js";
import type { Catalog } from "../catalog.js";
import type { Caller } from "./caller.js";
import { invalidParams } from "./request-shape.js";
import { asProtocolError, type ResourceAnswers } from "./resources.js";

export class CompletionAnswers {
  readonly #catalog: Catalog;
  readonly #router: CallRouter;
  readonly #resources: ResourceAnswers;

  constructor(catalog: Catalog, router: CallRouter, resources: ResourceAnswers) {
    this.#catalog = catalog;
    this.#router = router;
    this.#resources = resources;
  }

  async complete(caller: Caller, params: CompleteRequestParams, options: CallOptions): Promise<CompleteResult> {
    const target = this.#target(caller, params);
    const none: CompleteResult = { completion: { values: [] } };
    if (!target.completes) return none;
    const body: CallRequest = {
      kind: "complete",
      target: target.target,
      argument: params.argument.name,
      value: params.argument.value,
      context: params.context?.arguments ?? {},
    };
    const reply = await this.#router.relay(caller.principal, target.service, body, `completion/complete ${target.target.name}`, options);
    if (!reply.ok) throw asProtocolError(reply.error);
    return { completion: reply.result as CompleteResult["completion"] };
  }

  /** Who completes this reference's argument, if anyone. */
  #target(
    caller: Caller,
    params: CompleteRequestParams,
  ): { service: string; target: Extract<CallRequest, { kind: "complete" }>["target"]; completes: boolean } {
    const { ref, argument } = params;
    if (ref.type === "ref/prompt") {
      const prompt = this.#catalog
        .prompts()
        .find(
          ({ descriptor }) =>
            descriptor.name === ref.name &&
            (!descriptor.scope || permits({ scope: descriptor.scope, writes: false }, caller.principal, caller.transport)),
        );
      if (!prompt) throw new ProtocolError(invalidParams, `Unknown prompt '${ref.name}'; prompts/list names the prompts.`);
      const declared = prompt.descriptor.arguments.find((entry) => entry.name === argument.name);
      return { service: prompt.service, target: { kind: "prompt", name: ref.name }, completes: declared?.completes === true };
    }
    const family = this.#resources.families(caller).find(({ descriptor }) => descriptor.uriTemplate === ref.uri);
    if (!family) throw new ProtocolError(invalidParams, `No resource template ${ref.uri}; resources/templates/list names the templates.`);
    return {
      service: family.service,
      target: { kind: "resource", name: family.descriptor.name },
      completes: family.descriptor.completes.includes(argument.name),
    };
  }
}
