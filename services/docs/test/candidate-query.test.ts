/**
 * answer_query's candidate pruning: every passage that reaches the threshold holds one term of every
 * blocking set (so the index query never drops it), and with all the sets no other passage does.
 * Checked by brute force over every combination of terms a passage can hold.
 */
import { describe, expect, it } from "vitest";
import { blockingSets, clausesMax } from "../src/domain/ranking/candidate-query.js";

const threshold = 0.6;

/** Coverage as answer_query decides it: the held weight over the total, compared with the threshold. */
function qualifies(weights: number[], held: number): boolean {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const covered = weights.reduce((sum, weight, index) => (held & (1 << index) ? sum + weight : sum), 0);
  return covered / total >= threshold;
}

function candidate(sets: number[][], held: number): boolean {
  return sets.every((set) => set.some((index) => held & (1 << index)));
}

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** IDF-like weights: the floor 0.1, repeats, and rare words, as questions give them. */
function weightsOf(next: () => number, count: number): number[] {
  const pool = [0.1, 0.1, 1.699, 2.347, 2.987, 3.003, 3.392, 4.084, 4.084, 4.108, 9.21];
  return Array.from({ length: count }, () => (next() < 0.7 ? pool[Math.floor(next() * pool.length)]! : 0.1 + next() * 9));
}

describe("answer_query candidates", () => {
  it("when passages hold any combination of a question's terms, then exactly those reaching the threshold are candidates", () => {
    const next = seeded(7);
    let exact = 0;
    for (let round = 0; round < 400; round++) {
      const weights = weightsOf(next, 1 + (round % 9));
      const sets = blockingSets(weights, threshold);
      const all = sets.length < clausesMax;
      if (all) exact++;
      for (let held = 0; held < 1 << weights.length; held++) {
        const reaches = qualifies(weights, held);
        // Under the cap the query is exact; at the cap it may let more in, never fewer.
        if (all || reaches) expect(candidate(sets, held), `${weights} held ${held.toString(2)}`).toBe(reaches);
      }
    }
    expect(exact).toBeGreaterThan(350);
  });

  it("when a passage holds exactly 60 % of the weight, then it is a candidate, and at a hair less it is not", () => {
    const weights = [3, 2];
    const sets = blockingSets(weights, threshold);
    expect(candidate(sets, 0b01)).toBe(true);
    expect(qualifies(weights, 0b01)).toBe(true);
    const under = [2.9999, 2.0001];
    expect(candidate(blockingSets(under, threshold), 0b01)).toBe(false);
    expect(qualifies(under, 0b01)).toBe(false);
  });

  it("when a question has more blocking sets than the cap, then the query keeps the cap and still drops no qualifying passage", () => {
    const weights = Array.from({ length: 14 }, (_, index) => 4 + (index % 3) * 0.01);
    const sets = blockingSets(weights, threshold);
    expect(sets).toHaveLength(clausesMax);
    for (let held = 0; held < 1 << weights.length; held++) {
      if (qualifies(weights, held)) expect(candidate(sets, held)).toBe(true);
    }
    expect(candidate(sets, 0b11)).toBe(false);
  });

  it("when a question is as long as allowed, then the sets are found at once and every set is minimal", () => {
    const weights = weightsOf(seeded(11), 150);
    const total = weights.reduce((sum, weight) => sum + weight, 0);
    const started = performance.now();
    const sets = blockingSets(weights, threshold);
    // Bounded by its step cap (an exhaustive search of 150 terms would not end); 2 s leaves room for a
    // loaded machine (it took 600 ms at a load of 40 on 2 cores, a few ms idle).
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(sets.length).toBeGreaterThan(0);
    for (const set of sets) {
      const weight = set.reduce((sum, index) => sum + weights[index]!, 0);
      expect(weight).toBeGreaterThan(total * (1 - threshold));
      for (const index of set) expect(weight - weights[index]!).toBeLessThanOrEqual(total * (1 - threshold) + total * 1e-9);
    }
  });
});
