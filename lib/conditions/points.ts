// Concrete witnesses for the condition searches, all found and checked by the interpreter:
// - inputs (values of the function's parameters) classified as failing (some run fails an assertion)
//   or passing (no tried run failed), with the states their runs reached at the cut-points;
// - failing inputs inside a region (a neighbour of a precondition minus the precondition);
// - reachable states at a cut-point (for postconditions), each with the run that reaches it.
import { POINT_QUERY_WORK, REGION_FAILURE_STEPS, INPUT_RUN_STEPS, REACHABLE_EXPLORED_RUNS, SAMPLED_RUN_STEPS, type Deadline } from '../limits.js';
import type { Program } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { runProgram } from '../interpreter/index.js';
import type { RunResult } from '../interpreter/types.js';
import { isSatisfiable } from '../certify/lia.js';
import { mulberry32 } from '../random.js';
import { nondetStream, stateKey, statesAlong, type State } from '../observe/samples.js';
import { exploreRuns } from '../observe/explore.js';

export interface InputRun {
  readonly input: State;
  /** A run from this input that failed an assertion (null: none of the tried runs failed). */
  readonly failure: RunResult | null;
  /** States the passing runs reached at the watched cut-points. */
  readonly reached: ReadonlyMap<number, readonly State[]>;
  /** Every run from this input returned (none was cut off by the step limit or blocked by an assume). */
  readonly returned: boolean;
  /** Every run from this input was blocked by an assume before any watched cut-point: every
   * precondition admits it vacuously, so no search needs to cover it. */
  readonly blockedEarly: boolean;
}

export interface InputRunner {
  /** Runs the input (memoised): the default nondet stream first, then a few random ones. */
  run(input: State): InputRun;
  readonly runs: number;
  /** Interpreter steps of all runs so far (the searches' budgets count them). */
  readonly steps: number;
}

export function inputRunner(program: Program, fn: string, watched: readonly number[], options: { streams?: number; maxSteps?: number; seed?: number } = {}): InputRunner {
  const memo = new Map<string, InputRun>();
  const streams = options.streams ?? 3;
  const maxSteps = options.maxSteps ?? INPUT_RUN_STEPS;
  const next = mulberry32(options.seed ?? 2008);
  const watchedSet = new Set(watched);
  let runs = 0;
  let steps = 0;
  return {
    get runs() {
      return runs;
    },
    get steps() {
      return steps;
    },
    run(input: State): InputRun {
      const key = stateKey(input);
      const known = memo.get(key);
      if (known) return known;
      const reached = new Map<number, State[]>();
      let failure: RunResult | null = null;
      let returned = true;
      let blocked = true;
      for (let k = 0; k < streams && !failure; k++) {
        runs++;
        const nondet = k === 0 ? [] : nondetStream(next, 128);
        const result = runProgram(program, { entry: fn, inputs: input, nondet, nondetDefault: 0n, maxSteps, watch: { locations: watchedSet, firstAndLast: 5 } });
        steps += result.steps;
        // A failure is reported and replayed with its trace: the rare failing run is run again traced.
        if (result.outcome.kind === 'assertion-failed') failure = runProgram(program, { entry: fn, inputs: input, nondet, nondetDefault: 0n, maxSteps, recordTrace: true });
        else {
          if (result.outcome.kind !== 'exit') returned = false;
          if (result.outcome.kind !== 'assume-blocked') blocked = false;
          // A run that read no nondet value is the only run from this input: other streams repeat it.
          if (result.nondetConsumed.length === result.inputsFromNondet.length) k = streams;
          for (const [loc, states] of result.watched ?? []) {
            const list = reached.get(loc) ?? [];
            reached.set(loc, list);
            // The first states and the last one: a loop's extremes are usually where the run left it.
            for (const s of states) if (list.length < 5) list.push(s);
            const last = states.at(-1);
            if (last !== undefined && list.length >= 5 && list[list.length - 1] !== last) {
              if (list.length < 6) list.push(last);
              else list[5] = last;
            }
          }
        }
      }
      const out: InputRun = { input, failure, reached: failure ? new Map() : reached, returned: returned && !failure, blockedEarly: blocked && !failure && reached.size === 0 };
      memo.set(key, out);
      return out;
    },
  };
}

/** Inputs near the origin first: a full grid for up to three parameters, random points beyond. */
export function candidateInputs(params: readonly string[], options: { radius?: number; count?: number; seed?: number } = {}): State[] {
  const k = params.length;
  const radius = options.radius ?? (k <= 1 ? 40 : k === 2 ? 12 : k === 3 ? 6 : 4);
  const out: State[] = [];
  if (k <= 3) {
    const values: bigint[] = [];
    for (let v = -radius; v <= radius; v++) values.push(BigInt(v));
    const grid = (i: number, acc: bigint[]): void => {
      if (i === k) {
        out.push(new Map(params.map((p, j) => [p, acc[j]!] as [string, bigint])));
        return;
      }
      for (const v of values) grid(i + 1, [...acc, v]);
    };
    grid(0, []);
  } else {
    const next = mulberry32(options.seed ?? 11);
    for (let n = 0; n < (options.count ?? 1500); n++) {
      out.push(new Map(params.map((p) => [p, BigInt(Math.floor(next() * (2 * radius + 1)) - radius)] as [string, bigint])));
    }
  }
  // A few inputs of larger magnitude (log-uniform up to 1000): bugs that need a long loop (n >= 200).
  const wide = mulberry32((options.seed ?? 11) + 1);
  const magnitudes = [50, 100, 200, 300, 500, 1000];
  for (let n = 0; n < 200; n++) {
    out.push(new Map(params.map((p) => {
      const r = wide();
      const m = r < 0.5 ? Math.floor(wide() * 25) - 12 : magnitudes[Math.floor(wide() * magnitudes.length)]! * (wide() < 0.5 ? -1 : 1) + Math.floor(wide() * 21) - 10;
      return [p, BigInt(m)] as [string, bigint];
    })));
  }
  const size = (s: State): bigint => [...s.values()].reduce((a, v) => a + (v < 0n ? -v : v), 0n);
  return out.sort((a, b) => (size(a) < size(b) ? -1 : size(a) > size(b) ? 1 : 0));
}

/**
 * A failing input in `region ∧ ¬excluded`, or null: small grid points first, then points z3 finds in
 * growing boxes (blocking each one tried), each classified by the interpreter; within `steps` of the
 * runner's interpreter steps (memoised inputs cost none) and z3 work per point.
 */
export async function failingInputIn(
  runner: InputRunner,
  params: readonly string[],
  region: Formula,
  excluded: Formula,
  options: { steps?: number } = {},
): Promise<InputRun | null> {
  const stopAt = runner.steps + (options.steps ?? REGION_FAILURE_STEPS);
  const spent = (): boolean => runner.steps >= stopAt;
  const inside = F.and(region, F.not(excluded));
  const holds = (s: State): boolean => F.evaluate(inside, (v) => s.get(v) ?? 0n);
  for (const input of candidateInputs(params)) {
    if (spent()) break;
    if (!holds(input)) continue;
    const run = runner.run(input);
    if (run.failure) return run;
  }
  for (const radius of [50n, 1000n]) {
    let query = F.and(inside, ...params.flatMap((p) => [F.compare(L.variable(p), '<=', L.constant(radius)), F.compare(L.variable(p), '>=', L.constant(-radius))]));
    for (let tries = 0; tries < 12 && !spent(); tries++) {
      const sat = await isSatisfiable(query, { work: POINT_QUERY_WORK });
      if (sat.status !== 'sat' || !sat.model) break;
      const input: State = new Map(params.map((p) => [p, sat.model!.get(p) ?? 0n] as [string, bigint]));
      const run = runner.run(input);
      if (run.failure) return run;
      query = F.and(query, F.or(...params.map((p) => F.compare(L.variable(p), '!=', L.constant(input.get(p)!)))));
    }
  }
  return null;
}

export interface ReachedState {
  readonly state: State;
  /** The run that reached it: replaying these inputs and nondet values reaches the state again. */
  readonly inputs: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
}

/** Distinct states that concrete runs of `fn` reach at `target`, each with its run. */
export function reachableStates(program: Program, fn: string, target: number, variables: readonly string[], options: { runs?: number; maxSteps?: number; seed?: number; deadline?: Deadline; max?: number } = {}): ReachedState[] {
  const next = mulberry32(options.seed ?? 20080607);
  // The random runs are bounded by their count and steps (work, the same on any machine); the clock
  // only for the user's deadline.
  const found = new Map<string, ReachedState>();
  const max = options.max ?? 200;
  const maxSteps = options.maxSteps ?? SAMPLED_RUN_STEPS;
  const collect = (result: RunResult): void => {
    const states = statesAlong(program, fn, result, new Set([target])).get(target) ?? [];
    for (const full of states) {
      const state: State = new Map(variables.map((v) => [v, full.get(v) ?? 0n] as [string, bigint]));
      const key = stateKey(state);
      if (!found.has(key) && found.size < max) found.set(key, { state, inputs: result.inputs, nondet: result.nondetConsumed.slice(result.inputsFromNondet.length) });
    }
  };
  // First every stream over {0, 1} breadth first (the extreme states, see explore.ts), up to half of
  // the states; then random streams for the typical ones.
  for (const result of exploreRuns(program, fn, { maxSteps, maxRuns: REACHABLE_EXPLORED_RUNS })) {
    if (found.size >= max / 2) break;
    collect(result);
  }
  for (let run = 0; run < (options.runs ?? 400) && !options.deadline?.passed && found.size < max; run++) {
    collect(runProgram(program, { entry: fn, nondet: run === 0 ? [] : nondetStream(next, 256), nondetDefault: 0n, maxSteps, recordTrace: true }));
  }
  return [...found.values()];
}

