/**
 * The merged catalog of every service's tools and prompts, kept in memory. Filled at start, refreshed
 * when a service announces itself and periodically. A service that stops answering keeps its entries:
 * its calls then answer `unavailable` while the rest of the catalog works on.
 *
 * What a catalog may change is what clients are told — tool names, descriptions, annotations, the server's
 * instructions — so only the service's own word counts (docs/gateway.md "Trust"):
 * - a catalog is taken only when tagged with the key of the service asked, for this very request (a fresh call id
 *   each time), and names that service; anything else is refused, logged at warn, and changes nothing;
 * - a tool (and a prompt) belongs to the service that first listed it and stays its own while that service lists
 *   it: a second service claiming the name is refused and logged at warn, never replacing the first (at start, when
 *   there is no first, two services claiming one tool name stop the gateway, naming both);
 * - `catalog.changed` carries nothing trusted: it only makes the gateway ask, once at a time per service.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { randomUUID } from "node:crypto";
import {
  Header,
  serviceCatalog,
  type PromptDescriptor,
  type ResourceDescriptor,
  type ServiceCatalog,
  type Subjects,
  type ToolDescriptor,
  type Vocabulary,
} from "@bancada/contracts";
import {
  BusRequestError,
  admitsReply,
  checkReply,
  decodeJson,
  encodeJson,
  type Bus,
  type BusSubscription,
  type Logger,
} from "@bancada/service-kit";

export interface CatalogTool {
  service: string;
  descriptor: ToolDescriptor;
  validate: ValidateFunction;
}

export interface CatalogPrompt {
  service: string;
  descriptor: PromptDescriptor;
}

/** A family of resources (define-resource.ts in service-kit) and the service that reads it. */
export interface CatalogResource {
  service: string;
  descriptor: ResourceDescriptor;
}

export interface CatalogOptions {
  bus: Bus;
  subjects: Subjects;
  services: readonly string[];
  log: Logger;
  refreshMs?: number;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export class Catalog {
  readonly #options: CatalogOptions;
  readonly #ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
  readonly #services = new Map<string, ServiceCatalog>();
  readonly #lastSeen = new Map<string, number>();
  /** Services whose most recent catalog request went unanswered. */
  readonly #down = new Set<string>();
  readonly #listeners = new Set<() => void>();
  #tools: CatalogTool[] = [];
  #byName = new Map<string, CatalogTool>();
  #prompts: CatalogPrompt[] = [];
  #resources: CatalogResource[] = [];
  #instructions = "";
  #subscription: BusSubscription | undefined;
  /** Catalog requests in flight per service: announcements arriving meanwhile wait for that one. */
  readonly #fetching = new Map<string, Promise<boolean>>();
  #timer: NodeJS.Timeout | undefined;

  constructor(options: CatalogOptions) {
    this.#options = options;
  }

  /** First fill. A tool name claimed by two services is a start-up error naming both. */
  async start(): Promise<void> {
    const { bus, subjects } = this.#options;
    await Promise.all(this.#options.services.map((service) => this.#fetch(service)));
    this.#rebuild(true);
    this.#subscription = bus.subscribe(subjects.catalogChanged, (message) => {
      const service = announcedService(message.data);
      if (service && this.#options.services.includes(service)) void this.refresh(service);
    });
    this.#timer = setInterval(() => void this.refresh(), this.#options.refreshMs ?? 15_000).unref();
  }

  stop(): void {
    this.#subscription?.unsubscribe();
    clearInterval(this.#timer);
  }

  async refresh(service?: string): Promise<void> {
    const targets = service ? [service] : this.#options.services;
    const changed = await Promise.all(targets.map((name) => this.#fetchOnce(name)));
    if (changed.some(Boolean)) {
      try {
        this.#rebuild(false);
      } catch (error) {
        this.#options.log.error({ err: error }, "catalog rejected");
      }
    }
  }

  tools(): readonly CatalogTool[] {
    return this.#tools;
  }

  tool(name: string): CatalogTool | undefined {
    return this.#byName.get(name);
  }

  prompts(): readonly CatalogPrompt[] {
    return this.#prompts;
  }

  /** Every service's resource families, in service order (the order `resources/list` pages through them). */
  resources(): readonly CatalogResource[] {
    return this.#resources;
  }

  instructions(): string {
    return this.#instructions;
  }

  /** Each service's own instructions (the tool search reads them as part of the service's domain). */
  instructionsByService(): Record<string, string> {
    return Object.fromEntries([...this.#services.values()].map((catalog) => [catalog.service, catalog.instructions ?? ""]));
  }

  /** Each service's own words for its domain (the tool search reads a question with them for that service's tools). */
  vocabularyByService(): Record<string, Vocabulary> {
    return Object.fromEntries([...this.#services.values()].map((catalog) => [catalog.service, catalog.vocabulary ?? {}]));
  }

  /** Services that answered their latest catalog request, within `withinMs`. */
  healthy(withinMs: number): Record<string, boolean> {
    const now = Date.now();
    return Object.fromEntries(
      this.#options.services.map((name) => [name, !this.#down.has(name) && now - (this.#lastSeen.get(name) ?? 0) <= withinMs]),
    );
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #fetchOnce(service: string): Promise<boolean> {
    let fetching = this.#fetching.get(service);
    if (!fetching) {
      fetching = this.#fetch(service).finally(() => this.#fetching.delete(service));
      this.#fetching.set(service, fetching);
    }
    return fetching;
  }

  /** Asks one service for its catalog; true when it differs from what we had. */
  async #fetch(service: string): Promise<boolean> {
    const { bus, subjects, log } = this.#options;
    const subject = subjects.catalog(service);
    // a fresh id per request: the service's tag covers it, so an old answer cannot be played back
    const request = { data: encodeJson({}), headers: { [Header.callId]: randomUUID() } };
    try {
      const key = bus.keys.for(service);
      const reply = await bus.request(subject, request.data, {
        timeoutMs: 2_000,
        headers: request.headers,
        admitReply: admitsReply(key, subject, request),
      });
      const problem = checkReply(key, subject, request, reply);
      if (problem) {
        // not the service's word: what we have stays, and whether the service is up is left as it was
        log.warn({ subject, service, reason: problem }, "refused a catalog not signed by the service");
        return false;
      }
      const catalog = serviceCatalog.parse(decodeJson(reply.data));
      if (catalog.service !== service) {
        log.warn({ subject, service, names: catalog.service }, "refused a catalog naming another service");
        return false;
      }
      this.#lastSeen.set(service, Date.now());
      this.#down.delete(service);
      const before = this.#services.get(service);
      if (before && JSON.stringify(before) === JSON.stringify(catalog)) return false;
      this.#services.set(service, catalog);
      return true;
    } catch (error) {
      this.#down.add(service);
      if (!(error instanceof BusRequestError)) log.error({ err: error, service }, "invalid catalog");
      else log.debug({ service, reason: error.reason }, "service did not answer the catalog request");
      return false;
    }
  }

  /**
   * A tool's owner: the service that held it before, while it still lists it; else the first to claim it (in
   * service order). Every later claim is refused, loudly.
   */
  #owners(services: readonly ServiceCatalog[], kind: "tool" | "prompt" | "resource", strict: boolean): Map<string, string> {
    const listed = (catalog: ServiceCatalog) =>
      (kind === "tool" ? catalog.tools : kind === "prompt" ? catalog.prompts : (catalog.resources ?? [])).map(({ name }) => name);
    const holder = (name: string) =>
      kind === "tool"
        ? this.#byName.get(name)?.service
        : (kind === "prompt" ? this.#prompts : this.#resources).find((entry) => entry.descriptor.name === name)?.service;
    const owners = new Map<string, string>();
    for (const catalog of services)
      for (const name of listed(catalog)) if (holder(name) === catalog.service) owners.set(name, catalog.service);
    for (const catalog of services)
      for (const name of listed(catalog)) {
        const owner = owners.get(name);
        if (owner === undefined) owners.set(name, catalog.service);
        else if (owner !== catalog.service) {
          // at start there is no first: a clash of tools is a mistake to fix before serving
          if (strict && kind === "tool")
            throw new Error(`Tool name clash: '${name}' is declared by both '${owner}' and '${catalog.service}'.`);
          this.#options.log.warn(
            { [kind]: name, owner, claimant: catalog.service },
            `refused a ${kind} claimed by a second service: it stays with the service that owns it`,
          );
        }
      }
    return owners;
  }

  #rebuild(strict: boolean): void {
    const tools: CatalogTool[] = [];
    const prompts: CatalogPrompt[] = [];
    const services = [...this.#services.values()].sort((a, b) => a.service.localeCompare(b.service));
    const owners = this.#owners(services, "tool", strict);
    const promptOwners = this.#owners(services, "prompt", strict);
    const resourceOwners = this.#owners(services, "resource", strict);
    const resources: CatalogResource[] = [];
    for (const catalog of services) {
      for (const descriptor of catalog.tools) {
        if (owners.get(descriptor.name) !== catalog.service) continue;
        const previous = this.#byName.get(descriptor.name);
        const validate =
          previous && JSON.stringify(previous.descriptor.inputSchema) === JSON.stringify(descriptor.inputSchema)
            ? previous.validate
            : this.#ajv.compile(descriptor.inputSchema);
        tools.push({ service: catalog.service, descriptor, validate });
      }
      for (const descriptor of catalog.prompts)
        if (promptOwners.get(descriptor.name) === catalog.service) prompts.push({ service: catalog.service, descriptor });
      for (const descriptor of catalog.resources ?? [])
        if (resourceOwners.get(descriptor.name) === catalog.service) resources.push({ service: catalog.service, descriptor });
    }
    tools.sort((a, b) => a.descriptor.name.localeCompare(b.descriptor.name));
    this.#tools = tools;
    this.#byName = new Map(tools.map((tool) => [tool.descriptor.name, tool]));
    this.#prompts = prompts;
    this.#resources = resources;
    this.#instructions = services
      .filter((catalog) => catalog.instructions)
      .map((catalog) => catalog.instructions)
      .join("\n\n");
    for (const listener of this.#listeners) listener();
  }
}

/** The service a `catalog.changed` names, or undefined for anything else (garbage, another shape): never a throw. */
function announcedService(data: Uint8Array): string | undefined {
  try {
    const announced = decodeJson(data) as { service?: unknown } | null;
    return typeof announced?.service === "string" ? announced.service : undefined;
  } catch {
    return undefined;
  }
}
