/**
 * Ranks catalog tools against a question in plain words ("add a task to my board" → create_task). No model is
 * at hand on a gateway replica, so meaning comes from small concept lexicons: the words people use for an
 * action or a thing ("add", "new", "make" → create; "sandbox", "machine", "vm" → box) count as the concept
 * the tool names use, and BM25 weighs them by field (name over title over description over parameter
 * descriptions). The index is rebuilt only when the catalog changes.
 *
 * The gateway holds no words of its own: each service declares the words of its domain with its catalog
 * (`defineService({ vocabulary })`), and service-kit adds the verbs every domain shares (create, list, get, search,
 * update, delete: `packages/service-kit/src/common-verbs.ts`) to each, so adding a service never touches this file.
 * The lexicon is one for the whole catalog (every service's words): a concept's weight then reflects how many tools
 * of any domain use its words. A service's words cannot take more
 * from the others than its descriptions already could (a catalog is accepted only under the service's own key).
 *
 * A word can point at a tool of the wrong domain: in "run a python script in a sandbox", "script" names the
 * scripts library's tools, yet the question is about boxes. So each service is also read as one text (its
 * instructions and its tools' titles and descriptions), and a tool's score is weighed by how much of the
 * question its service covers, rare-across-services words counting most: boxes covers run, script (its tools run
 * scripts) and sandbox, the scripts library only script. Nothing here names a question's words.
 */
import type { ToolDescriptor, Vocabulary } from "@bancada/contracts";

const stopwords = new Set(
  "a an the to of in on for my me i and or with from into by at it its this that these those is are be can please some any up out do does our your as than then so we will".split(
    " ",
  ),
);

/** Words → concepts: the services' vocabularies (a concept's own name is one of its words). */
export class Lexicon {
  readonly #conceptsOf = new Map<string, string[]>();

  constructor(vocabularies: readonly Vocabulary[] = []) {
    for (const entries of vocabularies) {
      for (const [concept, words] of Object.entries(entries)) {
        for (const word of [concept, ...words]) {
          const key = stem(word);
          const list = this.#conceptsOf.get(key) ?? [];
          if (!list.includes(concept)) list.push(concept);
          this.#conceptsOf.set(key, list);
        }
      }
    }
  }

  /** Each word of a text as its group of terms: the word's stem, then every concept the lexicon gives it. */
  termGroups(text: string): string[][] {
    const out: string[][] = [];
    for (const raw of text
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)) {
      if (!raw || stopwords.has(raw) || raw.length < 2) continue;
      const s = stem(raw);
      out.push([s, ...(this.#conceptsOf.get(s) ?? []).map((concept) => `#${concept}`)]);
    }
    return out;
  }
}

/** Crude English stemming: enough to meet "tasks"/"task", "running"/"run", "deleted"/"delete". */
function stem(word: string): string {
  let w = word;
  if (w.length > 5 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("es") && /(ch|sh|x|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.length > 3 && /(.)\1$/.test(w) && !/(ss|ll)$/.test(w)) w = w.slice(0, -1); // running → runn → run
  if (w.length > 3 && w.endsWith("e")) w = w.slice(0, -1);
  return w;
}

const fieldWeights = { name: 3, title: 2, description: 1, parameters: 0.4 } as const;
type Field = keyof typeof fieldWeights;

interface IndexedTool {
  descriptor: ToolDescriptor;
  service: string;
  fields: Record<Field, Map<string, number>>;
  lengths: Record<Field, number>;
}

/** A catalog tool and the service that serves it (its domain). */
export interface RankableTool {
  descriptor: ToolDescriptor;
  service: string;
}

/** How much a tool's score follows its service's coverage of the question: from (1 - weight) to 1. */
const domainWeight = 0.8;
/** How much less a term counts in a tool's score when every tool of its service holds it. */
const sharedDiscount = 0.25;

export interface RankedTool {
  descriptor: ToolDescriptor;
  score: number;
}

export class ToolRanking {
  readonly #tools: IndexedTool[];
  readonly #idf = new Map<string, number>();
  readonly #averageLength: Record<Field, number>;
  readonly #domains: DomainIndex;
  /** Per service, the share of its tools that hold each term: a word most of a service's tools share tells them apart little. */
  readonly #shared = new Map<string, Map<string, number>>();

  readonly #lexicon: Lexicon;

  /**
   * `instructions`: each service's instructions (what the gateway tells clients), read as part of its domain;
   * `vocabularies`: each service's words for its domain, the common verbs included (a service without one is read
   *   by its tools' own words only).
   */
  constructor(
    tools: readonly RankableTool[],
    instructions: Readonly<Record<string, string>> = {},
    vocabularies: Readonly<Record<string, Vocabulary>> = {},
  ) {
    const services = [...new Set(tools.map((tool) => tool.service))].sort();
    this.#lexicon = new Lexicon(services.flatMap((service) => (vocabularies[service] ? [vocabularies[service]] : [])));
    this.#tools = tools.map((tool) => index(tool, this.#lexicon));
    this.#domains = new DomainIndex(tools, instructions, this.#lexicon);
    const sizes = new Map<string, number>();
    for (const tool of this.#tools) {
      sizes.set(tool.service, (sizes.get(tool.service) ?? 0) + 1);
      const shared = this.#shared.get(tool.service) ?? new Map<string, number>();
      const seen = new Set<string>();
      for (const field of Object.values(tool.fields)) for (const term of field.keys()) seen.add(term);
      for (const term of seen) shared.set(term, (shared.get(term) ?? 0) + 1);
      this.#shared.set(tool.service, shared);
    }
    for (const [service, shared] of this.#shared) for (const [term, count] of shared) shared.set(term, count / (sizes.get(service) ?? 1));
    const documentFrequency = new Map<string, number>();
    for (const tool of this.#tools) {
      const seen = new Set<string>();
      for (const field of Object.values(tool.fields)) for (const term of field.keys()) seen.add(term);
      for (const term of seen) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
    const n = this.#tools.length;
    for (const [term, df] of documentFrequency) this.#idf.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
    const average = (field: Field) => this.#tools.reduce((sum, tool) => sum + tool.lengths[field], 0) / Math.max(1, n);
    this.#averageLength = {
      name: average("name"),
      title: average("title"),
      description: average("description"),
      parameters: average("parameters"),
    };
  }

  /** The tools that `keep` accepts, best first; ties keep catalog order. Tools that match nothing are left out. */
  rank(query: string, keep: (descriptor: ToolDescriptor) => boolean, limit: number): RankedTool[] {
    const groups = this.#lexicon.termGroups(query);
    const coverage = this.#domains.coverage(groups);
    const ranked: RankedTool[] = [];
    for (const tool of this.#tools) {
      if (!keep(tool.descriptor)) continue;
      let score = 0;
      const shared = this.#shared.get(tool.service);
      for (const field of Object.keys(fieldWeights) as Field[]) {
        const norm = 1 - 0.75 + (0.75 * tool.lengths[field]) / Math.max(1, this.#averageLength[field]);
        // one query word counts once per field: by its own stem or by the best of its concepts, not by all of them
        for (const group of groups) {
          let best = 0;
          for (const term of group) {
            const tf = tool.fields[field].get(term);
            if (!tf) continue;
            // the service's coverage already counts its common words; here they count less
            const distinct = 1 - sharedDiscount * (shared?.get(term) ?? 0);
            best = Math.max(best, distinct * (this.#idf.get(term) ?? 0) * ((tf * 2.2) / (tf + 1.2 * norm)));
          }
          score += fieldWeights[field] * best;
        }
      }
      score *= 1 - domainWeight + domainWeight * (coverage.get(tool.service) ?? 0);
      if (score > 0) ranked.push({ descriptor: tool.descriptor, score });
    }
    return ranked.sort((a, b) => b.score - a.score).slice(0, limit);
  }
}

function index({ descriptor, service }: RankableTool, lexicon: Lexicon): IndexedTool {
  const parameterText = Object.entries((descriptor.inputSchema.properties ?? {}) as Record<string, { description?: string }>)
    .map(([name, schema]) => `${name} ${schema.description ?? ""}`)
    .join(" ");
  const texts: Record<Field, string> = {
    name: descriptor.name.replaceAll("_", " "),
    title: descriptor.title ?? "",
    description: descriptor.description,
    parameters: parameterText,
  };
  const fields = {} as Record<Field, Map<string, number>>;
  const lengths = {} as Record<Field, number>;
  for (const field of Object.keys(texts) as Field[]) {
    const counts = new Map<string, number>();
    const list = lexicon.termGroups(texts[field]).flat();
    for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
    fields[field] = counts;
    lengths[field] = list.length;
  }
  return { descriptor, service, fields, lengths };
}

/** Each service as one text: its instructions and its tools' names, titles and descriptions. */
class DomainIndex {
  readonly #terms = new Map<string, Map<string, number>>();
  readonly #idf = new Map<string, number>();

  constructor(tools: readonly RankableTool[], instructions: Readonly<Record<string, string>>, lexicon: Lexicon) {
    const texts = new Map<string, string[]>();
    for (const { descriptor, service } of tools) {
      const text = texts.get(service) ?? [instructions[service] ?? ""];
      text.push(descriptor.name.replaceAll("_", " "), descriptor.title ?? "", descriptor.description);
      texts.set(service, text);
    }
    const documentFrequency = new Map<string, number>();
    for (const [service, text] of texts) {
      const counts = new Map<string, number>();
      for (const term of lexicon.termGroups(text.join(" ")).flat()) counts.set(term, (counts.get(term) ?? 0) + 1);
      this.#terms.set(service, counts);
      for (const term of counts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
    const n = this.#terms.size;
    for (const [term, df] of documentFrequency) this.#idf.set(term, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }

  /** Per service, the share (0 to 1) of the question's weight it covers; each word counts by its best term. */
  coverage(groups: string[][]): Map<string, number> {
    const covered = new Map<string, number>();
    let total = 0;
    for (const group of groups) {
      let best = 0;
      for (const [service, counts] of this.#terms) {
        let here = 0;
        for (const term of group) {
          const tf = counts.get(term);
          if (tf) here = Math.max(here, (this.#idf.get(term) ?? 0) * (tf / (tf + 1)));
        }
        covered.set(service, (covered.get(service) ?? 0) + here);
        best = Math.max(best, here);
      }
      total += best;
    }
    for (const [service, value] of covered) covered.set(service, total > 0 ? value / total : 0);
    return covered;
  }
}
