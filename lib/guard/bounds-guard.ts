// The claim guard for loop bounds (issue 19). `bounds` proves `iterations <= bound` on a copy of the
// program with iteration counters added (lib/conditions/counters.ts): when the counters count wrongly,
// the certificate proves the wrong statement. Here every certified bound is checked on runs of the
// ORIGINAL program instead: body entries are counted from the interpreter's trace, per entry into the
// loop, from the edges the run took alone — no counter, no rewritten edge. The loops' shape (heads,
// back edges, natural loops) is found by the same functions the instrumentation uses; what is not
// shared is which edges restart and which advance a count, and the counting itself.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { locationPos, type Procedure, type Program } from '../ir/cfg.js';
import { runProgram, type RunOutcome, type RunResult, type TraceStep } from '../interpreter/index.js';
import { backEdges, bodyEntryEdges, loopsOf, naturalLoop } from '../vc/loops.js';
import { ClaimContradicted } from './claim.js';
import { boundaryValues, firstContradiction, guardCost, measured, nondetRead, runText, type GuardRunOptions } from './runs.js';
import { COUNTED_RUN_STEPS, GUARD_RUN_STEPS, GUARD_STEPS } from '../limits.js';

export interface LoopHead {
  readonly header: number;
  readonly line: number;
  readonly col: number;
}

/** The loops of a procedure, and for each edge the loops whose count it restarts or advances. */
export interface LoopEdges {
  /** In source order (as `bounds` lists them). */
  readonly loops: readonly LoopHead[];
  /** Edge id → indices into `loops` of the loops it enters from outside: their count starts again. */
  readonly entering: ReadonlyMap<number, readonly number[]>;
  /** Edge id → indices into `loops` of the loops whose body it enters from the head: one iteration. */
  readonly intoBody: ReadonlyMap<number, readonly number[]>;
}

export function loopEdges(proc: Procedure): LoopEdges {
  const back = backEdges(proc);
  const loops = loopsOf(proc).map((header): LoopHead => {
    const pos = locationPos(proc, header);
    return { header, line: pos.line, col: pos.col };
  });
  const entering = new Map<number, number[]>();
  const intoBody = new Map<number, number[]>();
  const note = (into: Map<number, number[]>, edge: number, loop: number): void => {
    const known = into.get(edge);
    if (known) known.push(loop);
    else into.set(edge, [loop]);
  };
  loops.forEach((loop, index) => {
    const body = naturalLoop(proc, loop.header, back);
    for (const e of proc.edges) if (e.to === loop.header && !back.has(e.id)) note(entering, e.id, index);
    for (const e of bodyEntryEdges(proc, loop.header, body)) note(intoBody, e.id, index);
  });
  return { loops, entering, intoBody };
}

/**
 * Per loop (indexed as `edges.loops`): the most body entries within one entry into the loop, along the
 * steps of the analysed function's own frame (depth 0) — pass the steps that took their edge
 * (completedSteps). A run cut short counts too: a bound holds at every step of every run, so
 * iterations already made before a run stopped are made by the run that goes on as well.
 */
export function mostIterations(edges: LoopEdges, trace: readonly TraceStep[]): bigint[] {
  const current = edges.loops.map(() => 0n);
  const most = edges.loops.map(() => 0n);
  for (const step of trace) {
    // A call edge is taken when its callee returns (the 'return' step names it), as the instrumented
    // program counts it: after the call. The 'call' step only starts the callee.
    if (step.depth !== 0 || step.kind === 'call') continue;
    for (const i of edges.entering.get(step.edge) ?? []) current[i] = 0n;
    for (const i of edges.intoBody.get(step.edge) ?? []) {
      const count = current[i]! + 1n;
      current[i] = count;
      if (count > most[i]!) most[i] = count;
    }
  }
  return most;
}

export interface CountedRun {
  readonly outcome: RunOutcome;
  /** Nondet values the run used, in order (with `inputs` and nondet default 0 they replay it); none
   * when it was given none (defaults and division quotients come back by themselves on a replay). */
  readonly nondet: readonly bigint[];
  readonly steps: number;
  /** Per loop of `edges.loops`: the most body entries within one entry into it. */
  readonly iterations: readonly bigint[];
}

/** The steps of a run that took their edge: all but a last one that stopped the run inside it (an
 * assertion that failed, a nondet value out of its type's range, a call past the depth limit). The
 * instrumented program blocks there before counting (its assertions are assumptions), and so must the
 * count. (A run with a nondet default never stops for want of a value.) */
export function completedSteps(run: Pick<RunResult, 'outcome' | 'trace'>): readonly TraceStep[] {
  const trace = run.trace ?? [];
  const o = run.outcome;
  const stoppedInside = o.kind === 'assertion-failed' || o.kind === 'nondet-out-of-range' || (o.kind === 'step-limit' && o.limit === 'call-depth');
  return stoppedInside ? trace.slice(0, -1) : trace;
}

/** One run of `fn` in the original program, with its loops' iterations counted from the trace. */
export function runCountingIterations(
  program: Program,
  fn: string,
  edges: LoopEdges,
  inputs: ReadonlyMap<string, bigint>,
  nondet: readonly bigint[],
  options: { readonly maxSteps: number; readonly foldIntoRange?: boolean },
): CountedRun {
  const run = runProgram(program, { entry: fn, inputs, nondet: [...nondet], nondetDefault: 0n, maxSteps: options.maxSteps, recordTrace: true, foldIntoRange: options.foldIntoRange ?? false });
  return { outcome: run.outcome, nondet: nondet.length > 0 ? run.nondetConsumed : [], steps: run.steps, iterations: mostIterations(edges, completedSteps(run)) };
}

/** Per loop head line: the most body entries in one entry into the loop on the run of `fn` on
 * `inputs`, which must return within COUNTED_RUN_STEPS (the tests' oracle). */
export function observedIterations(program: Program, fn: string, inputs: ReadonlyMap<string, bigint>): Map<number, bigint> {
  const edges = loopEdges(program.procedures.get(fn)!);
  const run = runCountingIterations(program, fn, edges, inputs, [], { maxSteps: COUNTED_RUN_STEPS });
  if (run.outcome.kind !== 'exit') throw new Error(`the run did not return: ${run.outcome.kind}`);
  const out = new Map<number, bigint>();
  edges.loops.forEach((loop, i) => {
    const seen = run.iterations[i]!;
    if (seen >= (out.get(loop.line) ?? 0n)) out.set(loop.line, seen);
  });
  return out;
}

/** A loop bound as the guard reads it (the bounds search's LoopBound is one): where the loop is,
 * whether it is certified, the bound over the parameters, the precondition it holds under, and the
 * input it is said to be tight on. */
export interface LoopBoundClaim {
  readonly line: number;
  readonly col: number;
  readonly certified: boolean;
  readonly bound: string | null;
  readonly boundExpr: L.Linear | null;
  readonly precondition: string;
  readonly preconditionFormula: Formula;
  readonly tight?: { readonly input: ReadonlyMap<string, bigint>; readonly nondet: readonly bigint[]; readonly iterations: bigint };
}

/** The claims of one bounds answer: the function, its parameters and its loops' bounds. */
export interface LoopBoundClaims {
  readonly function: string;
  readonly parameters: readonly string[];
  readonly loops: readonly LoopBoundClaim[];
}

export interface LoopBoundContradiction {
  readonly line: number;
  readonly col: number;
  /** 'bound': the run entered the body more often than the bound allows on its inputs. 'tight': the
   * run on the input the result calls tight does not make the iterations claimed there. */
  readonly claim: 'bound' | 'tight';
  readonly input: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
  /** Iterations of the run (the most within one entry into the loop). */
  readonly iterations: bigint;
  readonly description: string;
}

export type BoundsGuardOptions = Pick<GuardRunOptions, 'stepBudget' | 'maxStepsPerRun'>;

interface CheckedClaim {
  readonly loop: LoopBoundClaim;
  readonly bound: L.Linear;
  /** Index into LoopEdges.loops. */
  readonly index: number;
}

/**
 * The first contradiction of a certified loop bound of `result` by a run of `program` (the original,
 * not instrumented): runs on the inputs the result calls tight, then on a grid of small values, then
 * on seeded random inputs and nondet streams, until the step budget is spent. Only inputs satisfying
 * a claim's precondition test it; a claim whose bound or precondition names anything but parameters
 * cannot be evaluated on inputs and is not checked. Null when no run contradicts any claim.
 */
export function findLoopBoundContradiction(program: Program, result: LoopBoundClaims, options: BoundsGuardOptions = {}): LoopBoundContradiction | null {
  const proc = program.procedures.get(result.function)!;
  const params = new Set(result.parameters);
  const edges = loopEdges(proc);
  const claims: CheckedClaim[] = [];
  for (const loop of result.loops) {
    if (!loop.certified || !loop.boundExpr) continue;
    if (!L.variablesOf(loop.boundExpr).every((v) => params.has(v)) || ![...F.variablesOf(loop.preconditionFormula)].every((v) => params.has(v))) continue;
    const index = edges.loops.findIndex((l) => l.line === loop.line && l.col === loop.col);
    if (index < 0) throw new Error(`the loop-bound guard finds no loop at line ${loop.line}, column ${loop.col} of ${result.function}`);
    claims.push({ loop, bound: loop.boundExpr, index });
  }
  if (claims.length === 0) return null;
  const budget = options.stepBudget ?? GUARD_STEPS;
  const maxSteps = options.maxStepsPerRun ?? GUARD_RUN_STEPS;
  let steps = 0;
  const boundAt = (claim: CheckedClaim, input: ReadonlyMap<string, bigint>): bigint => {
    const value = L.evaluate(claim.bound, (v) => input.get(v)!);
    return value < 0n ? 0n : value; // a loop cannot run fewer than 0 times
  };
  const exceeding = (claim: CheckedClaim, input: ReadonlyMap<string, bigint>, run: CountedRun): LoopBoundContradiction | null => {
    const iterations = run.iterations[claim.index]!;
    const allowed = boundAt(claim, input);
    if (iterations <= allowed) return null;
    const value = L.isConstant(claim.bound) ? '' : ` = ${allowed}`;
    const under = claim.loop.precondition === '1' ? '' : `, under ${claim.loop.precondition}`;
    return { line: claim.loop.line, col: claim.loop.col, claim: 'bound', input, nondet: run.nondet, iterations, description: `line ${claim.loop.line}: ${plural(iterations, 'iteration')} > bound ${claim.loop.bound}${value}${under}` };
  };
  // The tight inputs first: each is a claim of its own (exactly `iterations` iterations there).
  for (const claim of claims) {
    const tight = claim.loop.tight;
    if (!tight || !holds(claim.loop.preconditionFormula, tight.input) || steps >= budget) continue;
    // Replayed as the observation runs made it: the nondet values as recorded, no folding.
    const run = runCountingIterations(program, result.function, edges, tight.input, tight.nondet, { maxSteps });
    steps += run.steps;
    guardCost.runs++;
    guardCost.steps += run.steps;
    if (run.outcome.kind === 'nondet-out-of-range') continue;
    const found = exceeding(claim, tight.input, run);
    if (found) return found;
    const bound = boundAt(claim, tight.input);
    const made = run.iterations[claim.index]!;
    const finished = run.outcome.kind !== 'step-limit';
    if (tight.iterations !== bound || (finished && made !== tight.iterations)) {
      const what = tight.iterations !== bound ? `the bound ${claim.loop.bound} is ${bound} there` : `the run makes ${made}`;
      return { line: claim.loop.line, col: claim.loop.col, claim: 'tight', input: tight.input, nondet: run.nondet, iterations: made, description: `line ${claim.loop.line}: tight on this input with ${plural(tight.iterations, 'iteration')}, but ${what}` };
    }
  }
  // Then the grid and random inputs of every guard, those inside some claim's precondition.
  return firstContradiction(program, result.function, {
    stepBudget: budget - steps,
    maxStepsPerRun: maxSteps,
    within: F.or(...claims.map((c) => c.loop.preconditionFormula)),
    boundaries: claims.flatMap((c) => boundaryValues(c.loop.preconditionFormula)),
    recordTrace: true,
  }, (run, given) => {
    const counted: CountedRun = { outcome: run.outcome, nondet: given.nondet.length > 0 ? run.nondetConsumed : [], steps: run.steps, iterations: mostIterations(edges, completedSteps(run)) };
    for (const claim of claims.filter((c) => holds(c.loop.preconditionFormula, run.inputs))) {
      const found = exceeding(claim, run.inputs, counted);
      if (found) return found;
    }
    return null;
  });
}

/** Throws ClaimContradicted when a run of the original program breaks a certified loop bound of
 * `result`: the certificate is then about a wrongly built program, and no bound may be reported. */
export function guardLoopBounds(program: Program, result: LoopBoundClaims, options: BoundsGuardOptions = {}): void {
  measured(() => {
    const found = findLoopBoundContradiction(program, result, options);
    if (found) throw new ClaimContradicted('loop bound', runText(found.input, found.nondet), found.description, found.line);
  });
}




/**
 * The total over all loops (bounds.ts, totalBound) held to runs of the original program: the body
 * entries of every loop of `fn` in one run, the iterations a run cut short already made included,
 * never exceed its value on the run's inputs. A contradiction throws ClaimContradicted.
 */
export function guardTotalBound(program: Program, fn: string, total: { readonly text: string; readonly value: (input: ReadonlyMap<string, bigint>) => bigint }): void {
  measured(() => {
    const proc = program.procedures.get(fn)!;
    const edges = loopEdges(proc);
    const found = firstContradiction(program, fn, { recordTrace: true }, (run, given) => {
      const made = BigInt(completedSteps(run).reduce((n, s) => n + (s.depth === 0 && s.kind !== 'call' ? (edges.intoBody.get(s.edge)?.length ?? 0) : 0), 0));
      const allowed = total.value(given.input);
      return made > allowed ? new ClaimContradicted('total loop bound', runText(run.inputs, nondetRead(run)), `${plural(made, 'iteration')} of all loops > ${total.text} = ${allowed}`, proc.pos.line) : null;
    });
    if (found) throw found;
  });
}

function holds(precondition: Formula, input: ReadonlyMap<string, bigint>): boolean {
  return F.evaluate(precondition, (v) => input.get(v)!);
}

function plural(n: bigint, word: string): string {
  return `${n} ${word}${n === 1n ? '' : 's'}`;
}
