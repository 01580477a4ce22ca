// Concrete runs as a guide for the constraint solver, and as a cheap source of counterexamples.
// Every state a concrete run reaches at a cut-point satisfies every inductive invariant there, so
// "the template holds at this state" is a necessary condition on the unknown coefficients: adding it
// removes no solution of the Farkas system, but it is linear in the unknowns and prunes the SAT
// search enormously (a model must already fit the observed behaviour). Runs that fail an assertion
// are counterexamples; they are replayed on the original program before anyone reports them.
import type { Program } from '../ir/cfg.js';
import * as L from '../ir/linear.js';
import { runProgram } from '../interpreter/index.js';
import { foldInto } from '../interpreter/run.js';
import type { RunResult } from '../interpreter/types.js';
import { mulberry32 } from '../random.js';
import { guidedStreams, guidedValues, solvedValues } from './guided-inputs.js';
import { BAD_STATE_RUN_STEPS, BAD_STATE_STEPS, CALL_SAMPLE_RUN_STEPS, CALL_SAMPLE_STEPS, GUIDED_SAMPLE_STEPS, LONG_RUN_STEPS, SAMPLE_STEPS, SMALL_DOMAIN, SAMPLED_RUN_STEPS, WHOLE_RUN_ACCELERATED_STEPS, WHOLE_RUN_CORNERS, WHOLE_RUN_STEPS, type Deadline } from '../limits.js';

export type State = ReadonlyMap<string, bigint>;


/** A budget of interpreter steps, and the user's deadline (the only wall clock a search looks at). */
export interface WorkBudget {
  /** Steps all runs may take together (each function has its default). */
  readonly steps?: number;
  /** No run starts past it (default: none). */
  readonly deadline?: Deadline;
}

/** Counts the steps of runs against a WorkBudget. */
class StepCounter {
  private used = 0;
  constructor(private readonly steps: number, private readonly deadline: Deadline | undefined) {}
  /** Room for another run. */
  get open(): boolean {
    return this.used < this.steps && !this.deadline?.passed;
  }
  /** A run's steps, plus `setup` for the work before its first step (compiling its program). */
  add(result: RunResult, setup = 0): RunResult {
    this.used += result.steps + 1 + setup;
    return result;
  }
}

export interface SampleOptions extends WorkBudget {
  readonly runs?: number;
  readonly maxSteps?: number;
  readonly seed?: number;
  readonly maxPerCutpoint?: number;
  /** Stop at the first run that fails an assertion, for a caller that then wants only that run: the
   * runs are the same up to it, so the failure (and an overflow seen before it) is the same. */
  readonly untilFailure?: boolean;
  /** Also the guided runs (guided-inputs.ts: each value solved from the program's conditions, of its
   * types' limits and of its constants, at each read), which look for failures only (default true); a
   * caller whose own sampling of the same program ran them already leaves them out. */
  readonly guidedRuns?: boolean;
  /** Also the few long untraced runs that look for a failure needing many iterations (default
   * true); a caller whose own sampling of the same program ran them already leaves them out. */
  readonly longRuns?: boolean;
}

export interface Samples {
  /** Distinct states observed at each cut-point. */
  readonly states: ReadonlyMap<number, readonly State[]>;
  /** A run of the given program that failed an assertion, if any did. */
  readonly failure?: RunResult;
  /** A run that stopped at a signed overflow (undefined behaviour: the premise of reachability). */
  readonly overflow?: RunResult;
  /** Every distinct state observed at each cut-point (up to 4000), before `states` thins them out. */
  readonly observed?: ReadonlyMap<number, readonly State[]>;
  /** The function reads no input, and its one run went on past the long runs (see wholeRun). */
  readonly oneRunGoesOn?: boolean;
  /** A traced run read no nondet value within its steps: most likely the function reads no input,
   * and then it has that one run (and its long runs stop after one). Only a hint of cost: a function
   * that reads its input after those steps also has it. */
  readonly readsNoInput?: boolean;
}

/** Values mostly near zero, where small programs branch, sometimes larger. */
export function nondetStream(next: () => number, length: number): bigint[] {
  const out: bigint[] = [];
  for (let i = 0; i < length; i++) {
    const r = next();
    const magnitude = r < 0.35 ? 2 : r < 0.75 ? 12 : r < 0.95 ? 120 : 2000;
    out.push(BigInt(Math.floor(next() * (2 * magnitude + 1)) - magnitude));
  }
  return out;
}

/**
 * Like nondetStream, but each value after the first repeats an earlier one of the stream with
 * probability 1/2 (sometimes off by one): programs that assume relations between their inputs
 * (`assume(j == n && k == n)`) block nearly every independent draw, and equal inputs are what they need.
 */
export function correlatedNondetStream(next: () => number, length: number): bigint[] {
  const fresh = nondetStream(next, length);
  const out: bigint[] = [];
  for (let i = 0; i < length; i++) {
    if (i > 0 && next() < 0.5) {
      const earlier = out[Math.floor(next() * i)]!;
      const r = next();
      out.push(earlier + (r < 0.8 ? 0n : r < 0.9 ? 1n : -1n));
    } else out.push(fresh[i]!);
  }
  return out;
}

const BOUNDARY_RUNS = 12;

/** Extremes of the C types and small values around zero; folded into a value's range (run.ts,
 * foldIntoRange) 2^31 - 1 is also 255 for an unsigned char and 65535 for an unsigned short. */
const BOUNDARY_VALUES: readonly bigint[] = [
  2147483647n, -2147483648n, 0n, 4294967295n, -1n, 1n, 9223372036854775807n, -9223372036854775808n, 18446744073709551615n, 2n,
];

/** The run-th boundary stream: each position cycles through BOUNDARY_VALUES from a different start. */
export function boundaryStream(run: number, length: number): bigint[] {
  return Array.from({ length }, (_, i) => BOUNDARY_VALUES[(run + i * (run + 1)) % BOUNDARY_VALUES.length]!);
}

/** A cut-point with fewer distinct states than this after the independent runs is rarely reached. */
const FEW_STATES = 4;

export function sampleStates(program: Program, fn: string, cutpoints: readonly number[], options: SampleOptions = {}): Samples {
  const runs = options.runs ?? 48;
  const maxSteps = options.maxSteps ?? SAMPLED_RUN_STEPS;
  const maxPer = options.maxPerCutpoint ?? 32;
  const next = mulberry32(options.seed ?? 20080607);
  const watched = new Set(cutpoints);
  const seen = new Map<number, Map<string, State>>(cutpoints.map((c) => [c, new Map()]));
  let failure: RunResult | undefined;
  let overflow: RunResult | undefined;
  const budget = new StepCounter(options.steps ?? SAMPLE_STEPS, options.deadline);
  // A run that read no nondet value is the run of every stream (a program without inputs): later
  // runs of at most as many steps are counted instead of run, and the streams are still drawn, so
  // the samples are the same as if they had run.
  let readsNoNondet: RunResult | null = null;
  const sameRun = (steps: number): RunResult | null => (readsNoNondet && (steps <= maxSteps || readsNoNondet.outcome.kind !== 'step-limit') ? readsNoNondet : null);
  const observe = (nondet: readonly bigint[]): void => {
    const repeated = sameRun(maxSteps);
    if (repeated) {
      budget.add(repeated);
      return;
    }
    const result = budget.add(runProgram(program, { entry: fn, nondet, nondetDefault: 0n, maxSteps, recordTrace: true, preferPinned: true, foldIntoRange: true }));
    if (result.nondetConsumed.length === 0) readsNoNondet = result;
    if (result.outcome.kind === 'assertion-failed' && !failure) failure = result;
    if (result.outcome.kind === 'overflow' && !overflow) overflow = result;
    // Most states along a run were seen before: only new ones are copied.
    visitStatesAlong(program, fn, result, watched, (loc, env) => {
      const bucket = seen.get(loc)!;
      if (bucket.size >= 4000) return;
      const key = stateKey(env);
      if (!bucket.has(key)) bucket.set(key, new Map(env));
    });
  };
  const goOn = (): boolean => budget.open && !(options.untilFailure && failure);
  for (let run = 0; run < runs && goOn(); run++) observe(nondetStream(next, 256));
  // When independent draws leave a cut-point almost unvisited (the inputs must first pass a test
  // like `if (!(j == n && k == n)) return`), as many runs again with correlated values.
  if (goOn() && [...seen.values()].some((bucket) => bucket.size < FEW_STATES)) {
    for (let run = 0; run < runs && goOn(); run++) observe(correlatedNondetStream(next, 256));
  }
  // Runs on the C types' boundary values (INT_MAX, UINT_MAX, …: the stream's extremes folded into
  // each value's range), only to look for failures: where overflows and wrap-arounds show.
  for (let run = 0; run < BOUNDARY_RUNS && !failure && budget.open; run++) {
    const result = budget.add(sameRun(maxSteps) ?? runProgram(program, { entry: fn, nondet: boundaryStream(run, 64), nondetDefault: 0n, maxSteps, preferPinned: true, foldIntoRange: true }));
    if (result.outcome.kind === 'assertion-failed') failure = result;
    if (result.outcome.kind === 'overflow' && !overflow) overflow = result;
  }
  // Runs on values of the program's own (solved from its conditions, its types' limits, its
  // constants), each at every read, then at each read alone: only to look for failures that need one
  // input (`3 * x != 1227`). After all the others, on what they leave of the budget (at most
  // GUIDED_SAMPLE_STEPS), so the states are those of the runs above. A program that reads no input
  // has one run, made already.
  if (options.guidedRuns !== false && !failure && !readsNoNondet) {
    const guided = new StepCounter(GUIDED_SAMPLE_STEPS, options.deadline);
    let reads = 0;
    for (const nondet of guidedStreams(guidedValues(program), () => reads)) {
      if (failure || !budget.open || !guided.open) break;
      const result = guided.add(budget.add(runProgram(program, { entry: fn, nondet, nondetDefault: 0n, maxSteps, preferPinned: true, foldIntoRange: true })));
      reads = Math.max(reads, result.nondetConsumed.length - result.nondetDefaulted - result.nondetSolved);
      if (result.outcome.kind === 'assertion-failed') failure = result;
      if (result.outcome.kind === 'overflow' && !overflow) overflow = result;
    }
    // Then every value between the least and the greatest solved value at the first read, when they
    // span at most SMALL_DOMAIN values: `assume(0 <= n && n <= 340)` before a loop that fails for one
    // n only, which no condition gives (`s != 217` after n iterations of `s += 3`). Loops run in
    // closed form here (accelerate.ts), so a run of hundreds of iterations costs a few steps.
    const solved = solvedValues(program.procedures.get(fn)!);
    if (solved.length > 0 && !failure) {
      const lo = solved.reduce((a, b) => (b < a ? b : a));
      const hi = solved.reduce((a, b) => (b > a ? b : a));
      if (hi - lo <= BigInt(SMALL_DOMAIN)) {
        for (let v = lo; v <= hi && !failure && budget.open && guided.open; v++) {
          const result = guided.add(budget.add(runProgram(program, { entry: fn, nondet: [v], nondetDefault: 0n, maxSteps, preferPinned: true, foldIntoRange: true, accelerate: true })));
          if (result.outcome.kind === 'assertion-failed') failure = result;
          if (result.outcome.kind === 'overflow' && !overflow) overflow = result;
        }
      }
    }
  }
  // The long runs, last: a caller that may prove the program first leaves them out and adds them
  // when it needs them (withLongRuns).
  const long = options.longRuns !== false && !failure ? longRuns(program, fn, options) : null;
  if (long?.failure) failure = long.failure;
  if (long?.overflow && !overflow) overflow = long.overflow;
  const oneRunGoesOn = long?.oneRunGoesOn ?? false;
  const states = new Map<number, State[]>();
  for (const [c, bucket] of seen) {
    const all = [...bucket.values()];
    // Keep a spread: evenly spaced over the (run, then time) order in which they were seen.
    const step = Math.max(1, Math.ceil(all.length / maxPer));
    states.set(c, all.filter((_, i) => i % step === 0).slice(0, maxPer));
  }
  const observed = new Map<number, State[]>([...seen].map(([c, bucket]) => [c, [...bucket.values()]]));
  return {
    states,
    observed,
    ...(failure ? { failure } : {}),
    ...(overflow ? { overflow } : {}),
    ...(oneRunGoesOn && !failure ? { oneRunGoesOn } : {}),
    ...(readsNoNondet ? { readsNoInput: true } : {}),
  };
}

const LONG_RUNS = 8;
/** The long runs draw from their own stream: taken with the samples or later, they are the same runs. */
const LONG_RUN_SEED = 0x5eed1;

interface LongRuns {
  readonly failure?: RunResult;
  readonly overflow?: RunResult;
  /** The function read no input, and its one run went on past LONG_RUN_STEPS. */
  readonly oneRunGoesOn: boolean;
}

/**
 * A few long untraced runs, only to look for failures that need many iterations to show (and
 * overflows): they add no state. A function that reads no input has one run, so one long run.
 */
function longRuns(program: Program, fn: string, options: SampleOptions): LongRuns {
  const next = mulberry32((options.seed ?? 20080607) ^ LONG_RUN_SEED);
  const budget = new StepCounter(options.steps ?? SAMPLE_STEPS, options.deadline);
  let overflow: RunResult | undefined;
  for (let run = 0; run < LONG_RUNS && budget.open; run++) {
    const nondet = run === 0 ? [] : nondetStream(next, 256);
    const result = budget.add(runProgram(program, { entry: fn, nondet, nondetDefault: 0n, maxSteps: LONG_RUN_STEPS, preferPinned: true, foldIntoRange: true }));
    if (result.outcome.kind === 'overflow' && !overflow) overflow = result;
    if (result.outcome.kind === 'assertion-failed') return { failure: result, ...(overflow ? { overflow } : {}), oneRunGoesOn: false };
    // Every stream gives this run: the other long runs would repeat it.
    if (result.nondetConsumed.length === 0) return { ...(overflow ? { overflow } : {}), oneRunGoesOn: result.outcome.kind === 'step-limit' };
  }
  return { ...(overflow ? { overflow } : {}), oneRunGoesOn: false };
}

/**
 * Samples taken without the long runs (`longRuns: false`), with them added: their failure, when the
 * samples have none, and their overflow, when the samples have none. The same as taking the samples
 * with them, except a failure of the traced runs keeps its place.
 */
export function withLongRuns(program: Program, fn: string, samples: Samples, options: SampleOptions = {}): Samples {
  if (samples.failure) return samples;
  const long = longRuns(program, fn, options);
  return {
    ...samples,
    ...(long.failure ? { failure: long.failure } : {}),
    ...(!samples.overflow && long.overflow ? { overflow: long.overflow } : {}),
    ...(long.oneRunGoesOn && !long.failure ? { oneRunGoesOn: true } : {}),
  };
}

/**
 * A function that reads no input has one run. When it goes on past the sampling's long runs (loops
 * to 10^6 and more, which start at fixed values), it is run once to its end, within WHOLE_RUN_STEPS
 * interpreted steps (its repeating loops in closed form: WHOLE_RUN_ACCELERATED_STEPS in all),
 * watching the cut-points for the corners of its path (RunOptions.watch.corners): they span the same
 * convex hull as all its states there, so the bounds, hull equalities and facets taken from the
 * samples are those of the whole run, not of its first thousand steps. The samples with those states
 * added, and the run as `failure` when it fails an assertion; null when there is no such run.
 */
export function wholeRun(program: Program, fn: string, cutpoints: readonly number[], samples: Samples, options: { readonly deadline?: Deadline; readonly steps?: number } = {}): Samples | null {
  if (!samples.oneRunGoesOn || options.deadline?.passed || options.deadline?.aborted) return null;
  const deadline = options.deadline;
  const result = runProgram(program, {
    entry: fn,
    nondet: [],
    nondetDefault: 0n,
    maxSteps: options.steps ?? WHOLE_RUN_ACCELERATED_STEPS,
    maxWork: options.steps ?? WHOLE_RUN_STEPS,
    accelerate: true,
    preferPinned: true,
    watch: { locations: new Set(cutpoints), corners: WHOLE_RUN_CORNERS },
    ...(deadline ? { interrupted: () => deadline.passed || deadline.aborted } : {}),
  });
  const add = (from: ReadonlyMap<number, readonly State[]> | undefined): Map<number, State[]> => {
    const out = new Map<number, State[]>();
    for (const c of cutpoints) {
      const list = [...(from?.get(c) ?? [])];
      const keys = new Set(list.map(stateKey));
      for (const state of result.watched?.get(c) ?? []) {
        if (!keys.has(stateKey(state))) list.push(state);
      }
      out.set(c, list);
    }
    return out;
  };
  return {
    states: add(samples.states),
    observed: add(samples.observed ?? samples.states),
    ...(result.outcome.kind === 'assertion-failed' ? { failure: result } : {}),
    ...(samples.overflow ? { overflow: samples.overflow } : result.outcome.kind === 'overflow' ? { overflow: result } : {}),
  };
}

/** The entry frame's full states at the watched locations along a traced run, in order. */
export function statesAlong(program: Program, fn: string, result: RunResult, watched: ReadonlySet<number>): Map<number, State[]> {
  const out = new Map<number, State[]>();
  visitStatesAlong(program, fn, result, watched, (loc, env) => {
    const list = out.get(loc) ?? [];
    out.set(loc, list);
    list.push(new Map(env));
  });
  return out;
}

/** Calls `visit` with each of statesAlong's states, in order: the running state itself, which the
 * next step changes (copy what is kept). */
function visitStatesAlong(program: Program, fn: string, result: RunResult, watched: ReadonlySet<number>, visit: (loc: number, env: ReadonlyMap<string, bigint>) => void): void {
  const proc = program.procedures.get(fn)!;
  const env = new Map<string, bigint>();
  for (const g of program.globals) env.set(g.name, g.init);
  for (const l of proc.locals) env.set(l, 0n);
  for (const [p, v] of result.inputs) env.set(p, v);
  const record = (loc: number): void => {
    if (watched.has(loc)) visit(loc, env);
  };
  record(proc.entry);
  for (const step of result.trace ?? []) {
    if (step.depth !== 0) continue;
    for (const [k, v] of step.values) env.set(k, v);
    if (step.kind !== 'call') record(step.to);
  }
}

/** A run of `fn` from `state` at `location`: how it ended, and the states it passed at the `watched`
 * locations, in order (the start first, when `location` is watched). */
export interface RunFrom {
  readonly outcome: RunResult['outcome']['kind'];
  readonly along: readonly { readonly at: number; readonly state: State }[];
}

/** Runs `fn` from `state` at `location` (nondet values 0, at most `maxSteps` steps). */
export function runFrom(program: Program, fn: string, location: number, state: State, watched: ReadonlySet<number>, maxSteps: number): RunFrom {
  const from = startingAt(program, fn, location, state);
  const result = runProgram(from, { entry: fn, nondet: [], nondetDefault: 0n, maxSteps, recordTrace: true });
  const along: { at: number; state: State }[] = [];
  let started = false;
  visitStatesAlong(from, fn, result, new Set([...watched, location]), (at, env) => {
    // The chain of assignments that sets the state up passes no watched location before `location`.
    started ||= at === location;
    if (started && watched.has(at)) along.push({ at, state: new Map(env) });
  });
  return { outcome: result.outcome.kind, along };
}

/** The program, but with `fn` starting at `location` in the given state (a chain of assignments first). */
function startingAt(program: Program, fn: string, location: number, state: State): Program {
  const proc = program.procedures.get(fn)!;
  const locations = [...proc.locations];
  const edges = [...proc.edges];
  const vars = [...state.keys()];
  const pos = proc.locations[location]?.pos ?? proc.pos;
  const first = locations.length;
  for (let i = 0; i < vars.length; i++) locations.push({ id: first + i, loopHeader: false, label: 'start' });
  vars.forEach((v, i) => {
    const to = i + 1 < vars.length ? first + i + 1 : location;
    edges.push({ id: edges.length, from: first + i, to, stmt: { kind: 'assign', target: v, expr: L.constant(state.get(v)!) }, pos });
  });
  const entry = vars.length > 0 ? first : location;
  const procedures = new Map(program.procedures);
  procedures.set(fn, { ...proc, params: [], locals: [...new Set([...proc.params, ...proc.locals])], locations, edges, entry });
  return { ...program, procedures };
}

/**
 * States next to the observed ones (one variable off by one) from which some concrete run fails an
 * assertion. Every safe inductive invariant must exclude them: from such a state at the cut-point the
 * program can fail, so no invariant proving the program safe contains it.
 */
export function sampleBadStates(program: Program, fn: string, samples: Samples, options: WorkBudget & { perCutpoint?: number; streams?: number; maxSteps?: number; seed?: number } = {}): Map<number, State[]> {
  const perCut = options.perCutpoint ?? 24;
  const streams = options.streams ?? 3;
  const maxSteps = options.maxSteps ?? BAD_STATE_RUN_STEPS;
  const budget = new StepCounter(options.steps ?? BAD_STATE_STEPS, options.deadline);
  const next = mulberry32(options.seed ?? 7);
  const bad = new Map<number, State[]>();
  for (const [cut, states] of samples.states) {
    const good = new Set(states.map(stateKey));
    const found = new Map<string, State>();
    for (const s of states) {
      if (found.size >= perCut || !budget.open) break;
      for (const v of s.keys()) {
        for (const delta of [-1n, 1n]) {
          const candidate = new Map(s);
          candidate.set(v, s.get(v)! + delta);
          const key = stateKey(candidate);
          if (good.has(key) || found.has(key)) continue;
          // Checked for each candidate, not each state: a state of many variables has many.
          if (!budget.open) break;
          const from = startingAt(program, fn, cut, candidate);
          // Each run compiles its own program first: that work is counted as one step per edge, so
          // that short runs of a large program do not escape the budget.
          const setup = from.procedures.get(fn)!.edges.length;
          // A run that read no nondet value is the same run on every stream: it is counted again
          // instead of run again (and the streams are still drawn), so the states found are the same.
          let readsNoNondet: RunResult | null = null;
          for (let k = 0; k < streams; k++) {
            const nondet = k === 0 ? [] : nondetStream(next, 64);
            const r = budget.add(readsNoNondet ?? runProgram(from, { entry: fn, nondet, nondetDefault: 0n, maxSteps }), readsNoNondet ? 0 : setup);
            if (r.nondetConsumed.length === 0) readsNoNondet = r;
            if (r.outcome.kind === 'assertion-failed') {
              found.set(key, candidate);
              break;
            }
          }
        }
      }
    }
    bad.set(cut, [...found.values()].slice(0, perCut));
  }
  return bad;
}

export function stateKey(s: State): string {
  return [...s].map(([k, v]) => `${k}=${v}`).join(',');
}

/** One observed call of a procedure: its arguments and the value it returned. */
export interface CallObservation {
  readonly args: ReadonlyMap<string, bigint>;
  readonly result: bigint;
}

/**
 * Calls observed in concrete runs of `fn`, per callee (distinct argument/result pairs, at most
 * `maxPerProcedure`). Every valid pre/post pair of a procedure holds on each of its real calls
 * (A(args) ⇒ B(args, result)), which makes them necessary conditions on summary templates, just as
 * reached states are for invariants. Only calls whose result is stored are observed.
 */
export function sampleCalls(program: Program, fn: string, options: SampleOptions & { maxPerProcedure?: number } = {}): Map<string, CallObservation[]> {
  const runs = options.runs ?? 16;
  const maxSteps = options.maxSteps ?? CALL_SAMPLE_RUN_STEPS;
  const maxPer = options.maxPerProcedure ?? 48;
  const next = mulberry32(options.seed ?? 20080607);
  const steps = options.steps ?? CALL_SAMPLE_STEPS;
  const budget = new StepCounter(steps, options.deadline);
  const seen = new Map<string, Map<string, CallObservation>>();
  const observe = (callee: string, args: ReadonlyMap<string, bigint>, value: bigint): void => {
    const bucket = seen.get(callee) ?? new Map<string, CallObservation>();
    seen.set(callee, bucket);
    const key = `${stateKey(args)}->${value}`;
    if (bucket.size < maxPer && !bucket.has(key)) bucket.set(key, { args, result: value });
  };
  const collect = (result: RunResult): void => {
    const open: { callee: string; args: ReadonlyMap<string, bigint> }[] = [];
    for (const step of result.trace ?? []) {
      if (step.kind === 'call') {
        const stmt = program.procedures.get(step.procedure)?.edges[step.edge]?.stmt;
        open.push({ callee: stmt?.kind === 'call' ? stmt.callee : '', args: step.values });
      } else if (step.kind === 'return') {
        const call = open.pop();
        const value = [...step.values.values()][0];
        if (!call || value === undefined || call.callee === '') continue;
        observe(call.callee, call.args, value);
      }
    }
  };
  // Half the budget at most for the program's own runs: a run with a large nondet input can take
  // its whole step budget (count(n) for n near a million), and the grid below must still get its turn.
  const ownRuns = new StepCounter(steps / 2, options.deadline);
  for (let run = 0; run < runs && ownRuns.open; run++) {
    collect(budget.add(ownRuns.add(runProgram(program, { entry: fn, nondet: nondetStream(next, 256), nondetDefault: 0n, maxSteps, recordTrace: true }))));
  }
  // The program's own calls often lie on one line (Fig. 3(a) calls Add(5, 3), then Add(4, 4), …: all
  // with i + j == 8), which fits many laws. Calling each observed procedure directly on a small grid
  // of arguments adds real calls off that line, so the law that holds in general stands out.
  for (const callee of [...seen.keys()]) {
    const params = program.procedures.get(callee)?.params ?? [];
    for (const args of argumentGrid(params, next)) {
      if (!budget.open) break;
      // No nondet stream: past its end a quotient's havoc takes the value its assumption pins (n / 2),
      // where a random stream value would block the run; other nondet reads take 0.
      const result = budget.add(runProgram(program, { entry: callee, inputs: args, nondet: [], nondetDefault: 0n, maxSteps, recordTrace: true }));
      if (result.outcome.kind === 'exit' && result.outcome.returnValue !== null) observe(callee, result.inputs, result.outcome.returnValue);
      collect(result);
    }
  }
  // Then the values solved from the callee's own conditions over its parameters (guided-inputs.ts),
  // each at each parameter alone, the others 0: calls at the boundaries of its cases (McCarthy's
  // n == 100 and n == 101), which a grid near zero never makes. Not its types' limits: a recursion
  // from INT_MAX runs to its step limit.
  for (const callee of [...seen.keys()]) {
    const proc = program.procedures.get(callee);
    if (!proc || proc.params.length === 0) continue;
    for (const value of solvedValues(proc).slice(0, GUIDED_CALL_VALUES)) {
      for (const param of proc.params) {
        if (!budget.open || (seen.get(callee)?.size ?? 0) >= maxPer) break;
        const args = new Map(proc.params.map((p) => [p, p === param ? intoRange(value, proc.paramRanges?.get(p)) : 0n] as const));
        const result = budget.add(runProgram(program, { entry: callee, inputs: args, nondet: [], nondetDefault: 0n, maxSteps, recordTrace: true }));
        if (result.outcome.kind === 'exit' && result.outcome.returnValue !== null) observe(callee, result.inputs, result.outcome.returnValue);
        collect(result);
      }
    }
  }
  return new Map([...seen].map(([callee, bucket]) => [callee, [...bucket.values()]]));
}

/** Values of a callee's own that sampleCalls calls it on, at most. */
const GUIDED_CALL_VALUES = 16;

function intoRange(v: bigint, range: { readonly lo: bigint; readonly hi: bigint } | undefined): bigint {
  return range ? foldInto(v, range) : v;
}

const GRID_VALUES = [0n, 1n, 2n, 3n, 5n, -1n, -2n];
const MAX_GRID_CALLS = 49;

/** Argument vectors over GRID_VALUES: all of them for up to two parameters, a random sample beyond. */
function argumentGrid(params: readonly string[], next: () => number): Map<string, bigint>[] {
  const total = GRID_VALUES.length ** params.length;
  const vectors: bigint[][] = [];
  if (total <= MAX_GRID_CALLS) {
    for (let k = 0; k < total; k++) vectors.push(params.map((_, i) => GRID_VALUES[Math.floor(k / GRID_VALUES.length ** i) % GRID_VALUES.length]!));
  } else {
    for (let k = 0; k < MAX_GRID_CALLS; k++) vectors.push(params.map(() => GRID_VALUES[Math.floor(next() * GRID_VALUES.length)]!));
  }
  return vectors.map((v) => new Map(params.map((p, i) => [p, v[i]!])));
}
