// Iteration counts of concrete runs (observeIterations, on the counter-instrumented program), and
// candidate bounds fitted to them. A loop bound B(x) = a·x + b over the inputs x must be at least
// the number of iterations of every run, so the observed (input, iterations) pairs are necessary
// conditions on (a, b). Over a box of small integer coefficients a, the least b for each a is exact
// (the largest observed iterations − a·x), and the candidates are ranked by how tight they are on the
// observations: the sum of B over the observed inputs (an exact integer), then the size of a, then b.
// A candidate is only a guess: the constraint engine must prove `iterations <= B` before it is reported;
// every valid bound lies above every observation, so the best-ranked candidate that is proved is the
// tightest bound within the coefficient box as measured on those inputs.
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { nondetStream, stateKey, statesAlong, type State } from '../observe/samples.js';
import { runProgram } from '../interpreter/index.js';
import { mulberry32 } from '../random.js';
import { ITERATION_RUN_STEPS, OBSERVATION_STEPS } from '../limits.js';
import { candidateInputs } from './points.js';
import type { CounterInstrumentation } from './counters.js';

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

export interface Observations {
  readonly samples: Map<number, IterationSample[]>;
  readonly runs: number;
  readonly nonTerminating: number;
}


/** Most body entries per loop entry, per input, from runs on small and wide inputs (and random nondet
 * values), until the runs have taken `stepBudget` interpreter steps (default OBSERVATION_STEPS). */
export function observeIterations(counted: CounterInstrumentation, params: readonly string[], options: { stepBudget?: number } = {}): Observations {
  const budget = options.stepBudget ?? OBSERVATION_STEPS;
  let steps = 0;
  const next = mulberry32(1991);
  const perLoop = new Map<number, Map<string, IterationSample>>();
  let runs = 0;
  let nonTerminating = 0;
  const inputs = params.length === 0 ? Array.from({ length: 40 }, () => new Map<string, bigint>()) : candidateInputs(params);
  for (const [i, input] of inputs.entries()) {
    if (steps >= budget) break;
    runs++;
    const nondet = i === 0 || params.length > 0 ? [] : nondetStream(next, 256);
    const { counts, steps: taken } = runIterations(counted, input, nondet);
    steps += taken;
    if (counts === null) {
      nonTerminating++;
      continue;
    }
    for (const [header, iterations] of counts) {
      if (iterations === 0n) continue;
      const byInput = perLoop.get(header) ?? new Map<string, IterationSample>();
      perLoop.set(header, byInput);
      const key = stateKey(input);
      const known = byInput.get(key);
      if (!known || known.iterations < iterations) byInput.set(key, { input, iterations, nondet });
    }
  }
  return { samples: new Map([...perLoop].map(([h, m]) => [h, [...m.values()]])), runs, nonTerminating };
}

/** Per loop: the most body entries within one entry into the loop; null when the run does not return
 * within 8000 steps (a few thousand iterations of a small body: beyond that a run only costs time, and
 * dropping it only removes an observation). */
function runIterations(counted: CounterInstrumentation, input: State, nondet: readonly bigint[]): { counts: Map<number, bigint> | null; steps: number } {
  const run = runProgram(counted.program, { entry: counted.function, inputs: input, nondet: [...nondet], nondetDefault: 0n, maxSteps: ITERATION_RUN_STEPS, recordTrace: true });
  if (run.outcome.kind === 'step-limit') return { counts: null, steps: run.steps };
  const watched = new Map(counted.loops.flatMap((l) => l.afterIncrements.map((at) => [at, l] as const)));
  const out = new Map<number, bigint>(counted.loops.map((l) => [l.header, 0n]));
  for (const [loc, states] of statesAlong(counted.program, counted.function, run, new Set(watched.keys()))) {
    const loop = watched.get(loc)!;
    for (const s of states) {
      const n = s.get(loop.counter) ?? 0n;
      if (n > out.get(loop.header)!) out.set(loop.header, n);
    }
  }
  return { counts: out, steps: run.steps };
}

export function iterationsOf(counted: CounterInstrumentation, header: number, input: State, nondet: readonly bigint[]): bigint | null {
  return runIterations(counted, input, nondet).counts?.get(header) ?? null;
}
