/**
 * The merged catalog of every service's tools and prompts, kept in memory. Filled at start, refreshed
 * when a service announces itself and periodically. A service that stops answering keeps its entries:
 * its calls then answer `unavailable` while the rest of the catalog works on.
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { serviceCatalog, type PromptDescriptor, type ServiceCatalog, type Subjects, type ToolDescriptor } from "@bancada/contracts";
import { BusRequestError, decodeJson, encodeJson, type Bus, type BusSubscription, type Logger } from "@bancada/service-kit";

export interface CatalogTool {
  service: string;
  descriptor: ToolDescriptor;
  validate: ValidateFunction;
}

export interface CatalogPrompt {
  service: string;
  descriptor: PromptDescriptor;
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
  #instructions = "";
  #subscription: BusSubscription | undefined;
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
      const { service } = decodeJson(message.data) as { service?: string };
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
    const changed = await Promise.all(targets.map((name) => this.#fetch(name)));
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

  instructions(): string {
    return this.#instructions;
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

  /** Asks one service for its catalog; true when it differs from what we had. */
  async #fetch(service: string): Promise<boolean> {
    const { bus, subjects, log } = this.#options;
    try {
      const reply = await bus.request(subjects.catalog(service), encodeJson({}), { timeoutMs: 2_000 });
      const catalog = serviceCatalog.parse(decodeJson(reply.data));
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

  #rebuild(strict: boolean): void {
    const owners = new Map<string, string>();
    const tools: CatalogTool[] = [];
    const prompts: CatalogPrompt[] = [];
    const services = [...this.#services.values()].sort((a, b) => a.service.localeCompare(b.service));
    for (const catalog of services) {
      for (const descriptor of catalog.tools) {
        const owner = owners.get(descriptor.name);
        if (owner) {
          const message = `Tool name clash: '${descriptor.name}' is declared by both '${owner}' and '${catalog.service}'.`;
          if (strict) throw new Error(message);
          this.#options.log.error(message);
          continue;
        }
        owners.set(descriptor.name, catalog.service);
        const previous = this.#byName.get(descriptor.name);
        const validate =
          previous && JSON.stringify(previous.descriptor.inputSchema) === JSON.stringify(descriptor.inputSchema)
            ? previous.validate
            : this.#ajv.compile(descriptor.inputSchema);
        tools.push({ service: catalog.service, descriptor, validate });
      }
      for (const descriptor of catalog.prompts) prompts.push({ service: catalog.service, descriptor });
    }
    tools.sort((a, b) => a.descriptor.name.localeCompare(b.descriptor.name));
    this.#tools = tools;
    this.#byName = new Map(tools.map((tool) => [tool.descriptor.name, tool]));
    this.#prompts = prompts;
    this.#instructions = services
      .filter((catalog) => catalog.instructions)
      .map((catalog) => catalog.instructions)
      .join("\n\n");
    for (const listener of this.#listeners) listener();
  }
}
