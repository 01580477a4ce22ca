// Candidate bounds from concrete runs. A loop bound B(x) = a·x + b over the inputs x must be at least
// the number of iterations of every run, so the observed (input, iterations) pairs are necessary
// conditions on (a, b). Over a box of small integer coefficients a, the least b for each a is exact
// (the largest observed iterations − a·x), and the candidates are ranked by how tight they are on the
// observations: the sum of B over the observed inputs (an exact integer), then the size of a, then b.
// A candidate is only a guess: the constraint engine must prove `iterations <= B` before it is reported;
// every valid bound lies above every observation, so the best-ranked candidate that is proved is the
// tightest bound within the coefficient box as measured on those inputs.
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { State } from '../observe/samples.js';

export interface IterationSample {
  readonly input: State;
  /** Most body entries of the loop during one entry into it, on that input (>= 1). */
  readonly iterations: bigint;
  /** Nondet values of the run, in order (replaying input and these reproduces the count). */
  readonly nondet?: readonly bigint[];
}

export interface BoundCandidate {
  readonly bound: Linear;
  /** Σ over the samples of B(input): smaller is tighter. */
  readonly slack: bigint;
}

/** Candidate bounds, tightest first; coefficients range over [-c, c] with c = 2 (1 for more than four inputs). */
export function fitBounds(params: readonly string[], samples: readonly IterationSample[], max = 8): BoundCandidate[] {
  const range = params.length <= 4 ? 2n : 1n;
  const vectors: bigint[][] = [[]];
  for (let i = 0; i < params.length; i++) {
    const next: bigint[][] = [];
    for (const v of vectors) for (let c = -range; c <= range; c++) next.push([...v, c]);
    vectors.splice(0, vectors.length, ...next);
  }
  const ranked: { bound: Linear; slack: bigint; size: bigint; constant: bigint }[] = [];
  for (const a of vectors) {
    const dot = (x: State): bigint => a.reduce((s, c, i) => s + c * (x.get(params[i]!) ?? 0n), 0n);
    let b: bigint | null = null;
    for (const s of samples) {
      const need = s.iterations - dot(s.input);
      if (b === null || need > b) b = need;
    }
    const constant = b ?? 0n;
    const slack = samples.reduce((sum, s) => sum + dot(s.input) + constant, 0n);
    const size = a.reduce((s, c) => s + (c < 0n ? -c : c), 0n);
    ranked.push({ bound: L.fromTerms(a.map((c, i) => [params[i]!, c] as [string, bigint]), constant), slack, size, constant });
  }
  const cmp = (x: bigint, y: bigint): number => (x < y ? -1 : x > y ? 1 : 0);
  ranked.sort((p, q) => cmp(p.slack, q.slack) || cmp(p.size, q.size) || cmp(p.constant, q.constant));
  return ranked.slice(0, max).map(({ bound, slack }) => ({ bound, slack }));
}
