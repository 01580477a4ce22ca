// The runs every claim guard makes (issue 19): the ORIGINAL program, never a prepared copy, on inputs
// chosen without the search's help — a grid of small and boundary values (the constants of the claim
// and their neighbours among them), then seeded random inputs with random nondet streams, then values
// solved from the program's conditions (observe/guided-inputs.ts) — until a budget of interpreter
// steps is spent. Work, not time: the same runs on any machine.
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Formula } from '../ir/formula.js';
import type { Procedure, Program } from '../ir/cfg.js';
import { runProgram, type RunResult, type ValueRange } from '../interpreter/index.js';
import { foldInto } from '../interpreter/run.js';
import { nondetStream } from '../observe/samples.js';
import { solvedValues } from '../observe/guided-inputs.js';
import { mulberry32 } from '../random.js';
import { GUARD_RUN_STEPS, GUARD_STEPS } from '../limits.js';

/** Small values and boundaries first: a budget cut keeps the most telling inputs. */
const GRID_VALUES: readonly bigint[] = [0n, 1n, 2n, -1n, 3n, 5n, 10n, -2n];
/** Most inputs of the grid (the values per parameter shrink as parameters are added). */
const MAX_GRID_INPUTS = 256;
/** Inputs and nondet streams drawn at random (seeded) after the grid. */
const RANDOM_RUNS = 24;
const NONDET_PER_RUN = 64;
/** Values solved from the program's conditions that the last runs try, at most. */
const GUIDED_RUNS = 16;
/** Loop-head states kept per location and run: the first ones and the last (RunOptions.watch). */
const WATCHED_VISITS = 16;

/** What the guards of this process have cost so far: runs, interpreter steps and the time spent (for
 * reports such as `scripts/guard-cost.ts` only; no decision reads the time). */
export const guardCost = { runs: 0, steps: 0, millis: 0 };

/** `check()`, its time added to guardCost. */
export function measured<T>(check: () => T): T {
  const started = performance.now();
  try {
    return check();
  } finally {
    guardCost.millis += performance.now() - started;
  }
}

/** One input of a guard run: the parameters' values and the nondet stream (empty: every nondet value is 0). */
export interface GuardInput {
  readonly input: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
  /** Random streams know no C types: their values are folded into the range of what reads them. */
  readonly foldIntoRange: boolean;
}

export interface GuardRunOptions {
  /** Steps all runs may take together (default GUARD_STEPS). */
  readonly stepBudget?: number;
  /** Steps one run may take (default GUARD_RUN_STEPS). */
  readonly maxStepsPerRun?: number;
  /** Only inputs satisfying it are run (a claim's precondition over the parameters). */
  readonly within?: Formula;
  /** Values the grid tries beside the small ones (default: boundaryValues(within)). */
  readonly boundaries?: readonly bigint[];
  /** Locations of the entry procedure whose states the runs record (RunResult.watched). */
  readonly watch?: ReadonlySet<number>;
  /** Record every step (for claims about iterations). */
  readonly recordTrace?: boolean;
}

/**
 * Runs `fn` of `program` on guard inputs and hands each run to `visit`, which returns a
 * contradiction to stop at (or null to go on). Runs the C program cannot make (a nondet value out of
 * its type's range) are not handed over. Returns the first contradiction, or null when the budget is
 * spent or the inputs are exhausted without one.
 */
export function firstContradiction<T>(
  program: Program,
  fn: string,
  options: GuardRunOptions,
  visit: (run: RunResult, given: GuardInput) => T | null,
): T | null {
  const proc = program.procedures.get(fn)!;
  const budget = options.stepBudget ?? GUARD_STEPS;
  const maxSteps = options.maxStepsPerRun ?? GUARD_RUN_STEPS;
  const within = options.within ?? F.TRUE;
  let steps = 0;
  let readNondet = false;
  const run = (given: GuardInput): T | null => {
    if (!F.evaluate(within, (v) => given.input.get(v) ?? 0n)) return null;
    const result = runProgram(program, {
      entry: fn,
      inputs: given.input,
      nondet: [...given.nondet],
      nondetDefault: 0n,
      maxSteps,
      foldIntoRange: given.foldIntoRange,
      recordTrace: options.recordTrace ?? false,
      ...(options.watch && options.watch.size > 0 ? { watch: { locations: options.watch, firstAndLast: WATCHED_VISITS } } : {}),
    });
    steps += result.steps + 1; // a run that takes no step still costs
    guardCost.runs++;
    guardCost.steps += result.steps;
    readNondet ||= result.nondetConsumed.length > result.inputsFromNondet.length;
    if (result.outcome.kind === 'nondet-out-of-range') return null;
    return visit(result, given);
  };
  for (const input of gridInputs(proc, proc.params, options.boundaries ?? boundaryValues(within))) {
    if (steps >= budget) return null;
    const found = run({ input, nondet: [], foldIntoRange: false });
    if (found !== null) return found;
  }
  const next = mulberry32(19);
  for (let i = 0; i < RANDOM_RUNS && steps < budget; i++) {
    const values = nondetStream(next, proc.params.length);
    const input = new Map(proc.params.map((p, j) => [p, intoRange(values[j]!, proc.paramRanges?.get(p))] as const));
    const found = run({ input, nondet: nondetStream(next, NONDET_PER_RUN), foldIntoRange: true });
    if (found !== null) return found;
    // Without parameters the runs differ only in their nondet values: one that read none is every run.
    if (proc.params.length === 0 && !readNondet) break;
  }
  // Last, on what the others leave of the budget: the values solved from the program's conditions
  // (observe/guided-inputs.ts), each as every parameter and every nondet value at once, where a claim
  // wrong at one input (`3 * x != 1227`) shows. Not the types' limits and constants too: a loop to
  // INT_MAX takes a run's whole step limit, and the sampling before the claim tried them already.
  if (proc.params.length === 0 && !readNondet) return null;
  const solved = new Set([...program.procedures.values()].flatMap((p) => solvedValues(p)));
  for (const value of [...solved].slice(0, GUIDED_RUNS)) {
    if (steps >= budget) return null;
    const input = new Map(proc.params.map((p) => [p, intoRange(value, proc.paramRanges?.get(p))] as const));
    const found = run({ input, nondet: new Array<bigint>(NONDET_PER_RUN).fill(value), foldIntoRange: true });
    if (found !== null) return found;
  }
  return null;
}

/**
 * Every combination of the first few grid values (those in the parameter's C type), at most
 * MAX_GRID_INPUTS: the small values of GRID_VALUES, then `extra` (a claim's constants) and their
 * neighbours, so that a claim like `n >= 100` is tried at its boundary.
 */
export function gridInputs(proc: Procedure, params: readonly string[], extra: Iterable<bigint> = []): Map<string, bigint>[] {
  const boundary = [...extra].flatMap((c) => [c, c + 1n, c - 1n]);
  const values = [...new Set([...GRID_VALUES, ...boundary])];
  let perParameter = values.length;
  while (perParameter > 1 && perParameter ** params.length > MAX_GRID_INPUTS) perParameter--;
  let out: Map<string, bigint>[] = [new Map()];
  for (const p of params) {
    const range = proc.paramRanges?.get(p);
    // With few values per parameter the boundary ones come first: the small ones are in them too.
    const ordered = perParameter < values.length && boundary.length > 0 ? [...new Set([...boundary.slice(0, 3), ...values])] : values;
    const own = ordered.filter((v) => !range || (v >= range.lo && v <= range.hi)).slice(0, perParameter);
    out = out.flatMap((m) => own.map((v) => new Map([...m, [p, v]])));
  }
  return out;
}

/** Where the atoms of `f` change truth: `-c / a` (rounded both ways) for an atom `a*x + c`, `-c` when
 * it has several variables (the point where the others are 0). */
export function boundaryValues(f: Formula): bigint[] {
  const out = new Set<bigint>();
  F.mapAtoms(f, (rel, expr) => {
    const vars = L.variablesOf(expr);
    if (vars.length === 1) {
      const a = L.coefficientOf(expr, vars[0]!);
      out.add(L.floorDiv(-expr.constant, a));
      out.add(L.ceilDiv(-expr.constant, a));
    } else if (vars.length > 1) {
      out.add(-expr.constant);
    }
    return rel === '>=' ? F.geqZero(expr) : F.eqZero(expr);
  });
  return [...out];
}

export function intoRange(v: bigint, range: ValueRange | undefined): bigint {
  return range ? foldInto(v, range) : v;
}

/** `n=5, m=0`, then the nondet values the run read (trailing zeros dropped: the default replays them). */
export function runText(input: ReadonlyMap<string, bigint>, nondet: readonly bigint[]): string {
  let used = nondet.length;
  while (used > 0 && nondet[used - 1] === 0n) used--;
  const parts = [...input].map(([name, value]) => `${name}=${value}`);
  if (used > 0) parts.push(`nondet ${nondet.slice(0, used).join(',')}`);
  return parts.length > 0 ? parts.join(', ') : 'no inputs';
}

/** The nondet values a run read after its inputs: with its inputs they replay it. */
export function nondetRead(run: RunResult): readonly bigint[] {
  return run.nondetConsumed.slice(run.inputsFromNondet.length);
}
