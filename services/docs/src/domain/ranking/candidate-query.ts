/**
 * Which chunks can reach answer_query's threshold at all, as a tsquery the GIN index answers (exact
 * pruning: no passage that could qualify is left out).
 *
 * A passage qualifies when the weight (IDF) it misses is at most the slack, total × (1 − threshold). So
 * it must hold at least one term of every "blocking" set of terms, a set weighing more than the slack.
 * The query is the AND, over minimal blocking sets, of the OR of their terms' stems. With every minimal
 * set it matches exactly the passages that qualify; with fewer sets (the cap) it matches more passages,
 * never fewer, and coverage is still computed exactly for each candidate.
 *
 * Why not one set: the weights are the rarity of the question's words, but a chunk matches a term by its
 * stems, and a rare word can share its stem with a common one ("names" with "name"). A single OR of the
 * rarest terms then matched almost half the corpus; requiring one term of each of several sets does not.
 */
import { anyStem, type QueryTerm } from "../query-terms.js";

/** At most this many OR groups in the query (the smallest sets first: they prune most). */
export const clausesMax = 48;
/** The enumeration of blocking sets stops after this many steps, whatever the question's length. */
const stepsMax = 20_000;

/**
 * Minimal blocking sets, as indexes into `weights`, smallest first. A set blocks only when it weighs
 * more than the slack by a margin far above floating-point error, so rounding in the coverage sums can
 * never make a set look blocking that a qualifying passage misses.
 */
export function blockingSets(weights: number[], threshold: number): number[][] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const bound = total * (1 - threshold) + total * 1e-9;
  const order = weights.map((_, index) => index).sort((a, b) => weights[b]! - weights[a]! || a - b);
  const after = order.map((_, at) => order.slice(at).reduce((sum, index) => sum + weights[index]!, 0));
  const sets: number[][] = [];
  let steps = 0;
  // Heaviest terms first: the last term added is the lightest of the set, so when adding it first makes
  // the set block, dropping any one member leaves it under the bound, i.e. the set is minimal.
  const visit = (from: number, chosen: number[], weight: number) => {
    for (let at = from; at < order.length && steps < stepsMax; at++, steps++) {
      if (weight + after[at]! <= bound) return;
      const index = order[at]!;
      if (weight + weights[index]! > bound) sets.push([...chosen, index]);
      else visit(at + 1, [...chosen, index], weight + weights[index]!);
    }
  };
  visit(0, [], 0);
  return sets.sort((a, b) => a.length - b.length).slice(0, clausesMax);
}

export function candidateQuery(terms: QueryTerm[], threshold: number): string {
  const sets = blockingSets(
    terms.map((term) => term.weight),
    threshold,
  );
  if (!sets.length) return anyStem(terms);
  return sets.map((set) => `( ${anyStem(set.map((index) => terms[index]!))} )`).join(" & ");
}

/**
 * The query cover density is ranked by: the terms every qualifying passage must hold, or else the
 * rarest terms, as few as possible, that a qualifying passage holds one of.
 */
export function rankQuery(terms: QueryTerm[], threshold: number): string {
  const total = terms.reduce((sum, term) => sum + term.weight, 0);
  const mandatory = terms.filter((term) => total - term.weight < threshold * total);
  if (mandatory.length) return mandatory.map((term) => `( ${anyStem([term])} )`).join(" & ");
  const byWeight = [...terms].sort((a, b) => b.weight - a.weight);
  const necessary: QueryTerm[] = [];
  let left = total;
  for (const term of byWeight) {
    necessary.push(term);
    left -= term.weight;
    if (left < threshold * total) break;
  }
  return anyStem(necessary);
}
