// Breadth-first exploration of a function's runs over small nondet values. Random streams reach
// the states a typical run reaches; they rarely reach the extreme ones a postcondition's facets pass
// through (the speedometer's d == s + 5*t needs five increments in every second, one chance in
// thousands for independent draws). Exploring every stream over {0, 1} breadth first reaches all
// states within a few choices, extremes included.
//
// A node is a prefix of the nondet stream: the run from the entry consumes exactly it and stops where
// it needs one more value ('nondet-exhausted'); its children append each value of the domain. Two
// prefixes that stop at the same location in the same state have the same futures, so only the first
// is expanded. Every run is a real run of the program (a prefix of one), replayable from its stream.
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import type { RunResult } from '../interpreter/types.js';
import { stateKey } from './samples.js';
import { EXPLORED_RUNS, EXPLORED_STEPS, SAMPLED_RUN_STEPS, type Deadline } from '../limits.js';

/** Values tried at each choice: both sides of every `if (nondet())`. Inputs (parameters) come from
 * the stream too. */
const DOMAIN = [0n, 1n] as const;

export interface ExploreOptions {
  /** Most runs (nodes) explored. */
  readonly maxRuns?: number;
  /** Most interpreter steps over all runs: with maxRuns the deterministic bound on the work (the
   * same states on a busy machine as on an idle one). */
  readonly maxTotalSteps?: number;
  /** The user's deadline, if any; the step and run bounds are what limit the work. */
  readonly deadline?: Deadline;
  /** Steps per run (a run past it is kept, not expanded). */
  readonly maxSteps?: number;
}

/** Runs in breadth-first order of their streams, with recorded traces (generated one at a time:
 * thousands of traced runs are not kept in memory together). */
export function* exploreRuns(program: Program, fn: string, options: ExploreOptions = {}): Generator<RunResult> {
  const maxRuns = options.maxRuns ?? EXPLORED_RUNS;
  const maxTotalSteps = options.maxTotalSteps ?? EXPLORED_STEPS;
  let steps = 0;
  const queue: (readonly bigint[])[] = [[]];
  const expanded = new Set<string>();
  for (let head = 0; head < queue.length && head < maxRuns && steps < maxTotalSteps && !options.deadline?.passed; head++) {
    const result = runProgram(program, {
      entry: fn,
      nondet: queue[head]!,
      nondetDefault: null,
      maxSteps: options.maxSteps ?? SAMPLED_RUN_STEPS,
      recordTrace: true,
    });
    yield result;
    steps += result.steps;
    if (result.outcome.kind !== 'nondet-exhausted') continue;
    const key = stoppedAt(result);
    if (key !== null) {
      if (expanded.has(key)) continue;
      expanded.add(key);
    }
    for (const value of DOMAIN) queue.push([...result.nondetConsumed, value]);
  }
}

/** Where and in which state a run stopped, when it stopped in the entry function (inside a callee
 * the callee's frame is not reconstructed here, so such runs are never merged: null). */
function stoppedAt(result: RunResult): string | null {
  const trace = result.trace ?? [];
  const env = new Map<string, bigint>(result.inputs);
  let location: number | null = null;
  let depth = 0;
  for (const step of trace) {
    depth = step.kind === 'call' ? step.depth + 1 : step.depth;
    if (step.depth !== 0) continue;
    for (const [k, v] of step.values) env.set(k, v);
    if (step.kind !== 'call') location = step.to;
  }
  if (depth !== 0) return null;
  const globals = [...result.globals].map(([g, v]) => `${g}=${v}`).join(',');
  return `${location ?? 'entry'}|${stateKey(env)}|${globals}`;
}
