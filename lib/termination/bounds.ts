// `farkas bounds`: loop bounds by counter instrumentation (paper 004, Section 6.1, Claim 1).
// For each loop of the function: run the counted program on many inputs (the interpreter), fit the
// tightest linear bound over the inputs to the observed iteration counts (fit.ts), and let the
// constraint engine prove `iterations <= bound` at the increment — invariants found by Farkas and SAT,
// certified by the z3 checker, exactly as `farkas verify` does. A refuting run (the engine replays it)
// becomes one more observation and the fit is redone. When no bound holds for every input (the loop
// may not terminate), the search switches to weakest-precondition mode on the same instrumented program
// and reports conditional bounds: preconditions under which the loop runs at most `bound` times.
// Before any bound is returned, the claim guard (lib/guard) checks it on runs of the original program:
// a run that breaks it throws ClaimContradicted, since the certificate was then about a wrong program.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Procedure, Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import type { State } from '../observe/samples.js';
import { Problem } from '../problem/prepare.js';
import { recursiveProcedures } from '../ir/inline.js';
import { constraintEngine } from '../engines/index.js';
import type { VerifyResult } from '../result.js';
import { candidateInputs } from '../conditions/points.js';
import { wp } from '../conditions/wp.js';
import { proofSearch, type ConditionOptions } from '../conditions/search.js';
import { fitBounds, iterationsOf, observeIterations, type IterationSample } from '../conditions/bounds-fit.js';
import { withCallCounters } from './bounds-recursion.js';
import { withIterationCounters, type CounterInstrumentation } from '../conditions/counters.js';
import { backEdges, loopsOf, naturalLoop } from '../vc/loops.js';
import { guardLoopBounds, guardTotalBound } from '../guard/bounds-guard.js';
import { negated } from '../observe/houdini.js';
import { CALL_COUNT_RUN_STEPS, OBSERVATION_STEPS, type Deadline } from '../limits.js';
import { withCutset, type Settings } from '../settings.js';

export interface BoundsOptions extends ConditionOptions {
  /** Most candidate bounds sent to the prover per loop (default 4). */
  readonly candidates?: number;
  readonly onBoundsProgress?: (e: BoundsEvent) => void;
}

export type BoundsEvent =
  | { readonly kind: 'sampled'; readonly runs: number; readonly nonTerminating: number }
  | { readonly kind: 'candidate'; readonly line: number; readonly bound: string }
  | { readonly kind: 'result'; readonly line: number; readonly bound: string | null; readonly verdict: string };

export interface TightnessEvidence {
  readonly input: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
  /** Iterations of the replayed run: equal to the bound at this input. */
  readonly iterations: bigint;
}

export interface LoopBound {
  readonly function: string;
  readonly line: number;
  readonly col: number;
  /** C expression over the function's parameters, or null when none was proved. */
  readonly bound: string | null;
  readonly boundExpr: Linear | null;
  /** C expression; "1" when the bound holds for every input. */
  readonly precondition: string;
  readonly preconditionFormula: Formula;
  readonly certified: boolean;
  /** Conditional bounds: every neighbour of the precondition has a replayed input that breaks the bound. */
  readonly locallyWeakest?: boolean;
  /** One case of a bound split on a condition over the inputs: the loop's entries with caseSplit
   * are the condition and its negation (either possibly split once more), each certified, so
   * together they bound every input. */
  readonly caseSplit?: boolean;
  readonly invariants: readonly { readonly line: number; readonly expression: string }[];
  readonly tight?: TightnessEvidence;
  readonly reason?: string;
}

export interface ProcedureBound {
  readonly function: string;
  readonly procedure: string;
  readonly bound: string | null;
  readonly boundExpr: Linear | null;
  /** C expression; "1" when the bound holds for every input. */
  readonly precondition: string;
  readonly preconditionFormula: Formula;
  readonly certified: boolean;
  /** The procedure summaries of the proof (pre => post), as verify prints them. */
  readonly summaries: readonly string[];
  readonly tight?: TightnessEvidence;
  readonly reason?: string;
}

/** Work of the provers behind the bounds: verify runs (each a schedule of SAT calls) and wp queries. */
export interface BoundsStats {
  proofAttempts: number;
  satCalls: number;
  maxClauses: number;
}

/** What the parts of one bounds search share: the tally of its work and the user's deadline, the
 * only clock. Each loop's and each procedure's search is bounded by its work (its
 * candidates, each verify's own budgets), not by a share of the time: a share would end the first
 * loops' searches sooner on a busy machine and change the answer. */
type Internal = BoundsOptions & { readonly tally: BoundsStats; readonly settings: Settings; readonly deadline: Deadline };

function tallyVerify(tally: BoundsStats, stats: readonly { readonly clauses: number }[]): void {
  tally.proofAttempts++;
  tally.satCalls += stats.length;
  for (const s of stats) tally.maxClauses = Math.max(tally.maxClauses, s.clauses);
}

export interface BoundsResult {
  readonly stats: Readonly<BoundsStats>;
  readonly function: string;
  readonly parameters: readonly string[];
  readonly loops: readonly LoopBound[];
  /** Recursive procedures reachable from the function: a bound on their calls during one call of it. */
  readonly procedures: readonly ProcedureBound[];
  /** Functions called (directly or not) that contain loops: only the analysed function's own loops are
   * counted, so theirs are not bounded here (analyse them with --function). */
  readonly calleesWithLoops: readonly string[];
  /** Every loop's iterations in one call of the function together, from the certified bounds for
   * every input: a sum over loops in sequence, times the enclosing loop's bound for nested ones. */
  readonly total?: string;
  /** Observations: concrete runs, and how many of them did not return within the step budget. */
  readonly runs: number;
  readonly nonTerminatingRuns: number;
  readonly millis: number;
}

export function instrumentForBounds(program: Program, functionName?: string): CounterInstrumentation {
  return withIterationCounters(program, Problem.of(program, functionName).function);
}

export async function bounds(problem: Problem, settings: Settings, options: BoundsOptions = {}): Promise<BoundsResult> {
  const started = Date.now();
  const tally: BoundsStats = { proofAttempts: 0, satCalls: 0, maxClauses: 0 };
  const { deadline } = settings;
  const { program, function: fn } = problem;
  const proc = program.procedures.get(fn)!;
  const params = [...proc.params];
  const counted = withIterationCounters(program, fn, new Map());
  const observed = observeIterations(counted, params);
  options.onBoundsProgress?.({ kind: 'sampled', runs: observed.runs, nonTerminating: observed.nonTerminating });
  const loops: LoopBound[] = [];
  for (const loop of counted.loops) {
    // Every search stops at the user's deadline (50 loops in 60 s once took 93 s); a loop reached
    // after it is unknown.
    const result: LoopAnswer[] = deadline.passed
      ? [{ bound: null, boundExpr: null, precondition: '1', preconditionFormula: F.TRUE, certified: false, invariants: [], reason: deadline.timeoutReason('no time left for this loop') }]
      : await boundLoop(program, fn, params, counted, loop.header, observed.samples.get(loop.header) ?? [], { ...options, tally, settings, deadline });
    for (const r of result) {
      loops.push({ function: fn, line: loop.line, col: loop.col, ...r });
      options.onBoundsProgress?.({ kind: 'result', line: loop.line, bound: r.bound, verdict: r.certified ? 'certified' : 'unknown' });
    }
  }
  const recursive = recursiveProcedures(program);
  const reachable = reachableProcedures(program, fn);
  const called = reachable.filter((p) => recursive.has(p));
  const calleesWithLoops = reachable.filter((p) => p !== fn && loopsOf(program.procedures.get(p)!).length > 0);
  const procedures = called.length > 0 ? await boundCalls(program, fn, params, called, { ...options, tally, settings, deadline }) : [];
  // Each certificate is about the instrumented program: a bound is only returned once runs of the
  // original program, counted without the instrumentation, have not broken it (ClaimContradicted).
  guardLoopBounds(program, { function: fn, parameters: params, loops });
  const total = totalBound(proc, counted.loops, loops);
  // Derived from the loops' bounds, and held to runs of the original program as they are.
  if (total) guardTotalBound(program, fn, total);
  return { function: fn, parameters: params, loops, procedures, calleesWithLoops, ...(total ? { total: total.text } : {}), runs: observed.runs, nonTerminatingRuns: observed.nonTerminating, stats: tally, millis: Date.now() - started };
}

/**
 * The iterations of all loops in one call, when every loop is bounded for every input (one
 * unconditional bound, or the cases of a split, as a C conditional): T(L) = B(L) * (1 + the T of the
 * loops directly inside L), summed over the outermost loops. In structured C a loop directly inside
 * L's body is entered at most once per iteration of L, and each bound holds on every entry (it is
 * over the function's parameters), so the product bounds the inner loop's iterations.
 */
export interface TotalBound {
  readonly text: string;
  /** Its value on the function's parameters. */
  readonly value: (input: ReadonlyMap<string, bigint>) => bigint;
}

export function totalBound(proc: Procedure, counted: readonly { readonly header: number; readonly line: number; readonly col: number }[], loops: readonly LoopBound[]): TotalBound | null {
  const atLeastZero = (b: string) => (/^\d+$/.test(b) ? b : `max(0, ${b})`);
  const valueOf = (l: LoopBound, input: ReadonlyMap<string, bigint>) => {
    const v = L.evaluate(l.boundExpr!, (x) => input.get(x) ?? 0n);
    return v < 0n ? 0n : v;
  };
  const perEntry = new Map<number, TotalBound>();
  for (const c of counted) {
    const answers = loops.filter((l) => l.line === c.line && l.col === c.col && l.certified && l.boundExpr !== null);
    const whole = answers.find((l) => l.precondition === '1');
    const cases = answers.filter((l) => l.caseSplit);
    if (whole) perEntry.set(c.header, { text: atLeastZero(whole.bound!), value: (input) => valueOf(whole, input) });
    else if (cases.length >= 2) {
      perEntry.set(c.header, {
        text: `(${cases.map((l, i) => (i < cases.length - 1 ? `${l.precondition} ? ${atLeastZero(l.bound!)} : ` : atLeastZero(l.bound!))).join('')})`,
        // The cases partition the inputs: the first that holds.
        value: (input) => valueOf(cases.find((l) => F.evaluate(l.preconditionFormula, (x) => input.get(x) ?? 0n)) ?? cases[cases.length - 1]!, input),
      });
    } else return null;
  }
  if (counted.length === 0) return null;
  const back = backEdges(proc);
  const bodies = new Map(counted.map((c) => [c.header, naturalLoop(proc, c.header, back)] as const));
  // The innermost other loop whose body holds the head: the parent.
  const parent = (h: number): number | undefined =>
    counted.filter((o) => o.header !== h && bodies.get(o.header)!.has(h)).sort((a, b) => bodies.get(a.header)!.size - bodies.get(b.header)!.size)[0]?.header;
  const children = (h: number | undefined) => counted.filter((c) => parent(c.header) === h).map((c) => c.header);
  const term = (h: number): TotalBound => {
    const own = perEntry.get(h)!;
    const inner = children(h).map(term);
    if (inner.length === 0) return own;
    return {
      text: `${own.text} * (1 + ${inner.map((i) => i.text).join(' + ')})`,
      value: (input) => own.value(input) * (1n + inner.reduce((sum, i) => sum + i.value(input), 0n)),
    };
  };
  const top = children(undefined).map(term);
  return { text: top.map((t) => t.text).join(' + '), value: (input) => top.reduce((sum, t) => sum + t.value(input), 0n) };
}

type LoopAnswer = Omit<LoopBound, 'function' | 'line' | 'col'>;

async function boundLoop(program: Program, fn: string, params: readonly string[], counted: CounterInstrumentation, header: number, initial: readonly IterationSample[], options: Internal): Promise<LoopAnswer[]> {
  const { deadline } = options;
  const samples = [...initial];
  const recount = (input: State, nondet: readonly bigint[]) => iterationsOf(counted, header, input, nondet);
  const line = lineOf(program, fn, header);
  const prove = (bound: Linear, assumeAtEntry?: Formula): Promise<VerifyResult> =>
    constraintEngine.run(Problem.of(withIterationCounters(program, fn, new Map([[header, bound]]), assumeAtEntry ? { assumeAtEntry } : {}).program, fn), options.settings, {
      constraints: proofSearch(options, (event) => ({ kind: 'bound-proof', line, bound: L.toC(bound), event })),
    });
  // Where two cases fit the runs far better than one bound for all (|x| against x + 2020), the
  // cases go first: the one-bound candidates would each be an unprovable guess that takes a whole
  // verify's budget to fail.
  const splits = params.length > 0 ? rankedSplits(program, fn, params, samples) : [];
  if (splits[0]?.muchTighter) {
    const cases = await searchCaseSplit(params, samples, splits, recount, options, line, prove);
    if (cases) return cases;
  }
  const search = await searchFittedBound(params, samples, recount, options, line, (bound) => prove(bound), deadline);
  if (search.proved) {
    const { bound, result } = search.proved;
    const tight = tightInput(samples, bound, recount);
    return [{
      bound: L.toC(bound),
      boundExpr: bound,
      precondition: '1',
      preconditionFormula: F.TRUE,
      certified: true,
      invariants: result.invariants.map((i) => ({ line: i.line, expression: i.expression })),
      ...(tight ? { tight } : {}),
    }];
  }
  let lastReason = search.reason;
  // No linear bound holds for every input, or none was proved: a case split on a condition over the
  // inputs (max-shaped bounds such as max(x, -x), and "e if c else 0"), each case proved alone.
  if (splits.length > 0 && !splits[0]!.muchTighter && !deadline.passed) {
    const cases = await searchCaseSplit(params, samples, splits, recount, options, line, prove);
    if (cases) return cases;
  }
  // Some input may make the loop run forever: conditional bounds, in weakest-precondition mode.
  const bound = search.unrefuted ?? fitBounds(params, samples)[0]?.bound ?? null;
  if (bound && params.length > 0 && !deadline.passed) {
    const asserted = withIterationCounters(program, fn, new Map([[header, bound]]));
    const result = await wp(Problem.of(asserted.program, fn), options.settings, { ...options, maxAnswers: 3, coverCutOffRuns: false });
    tallyVerify(options.tally, result.stats.queries);
    // A precondition under which the loop is never entered bounds it vacuously: keep those that admit
    // an observed run entering the loop.
    const entering = samples.filter((s) => s.iterations > 0n);
    const answers = result.preconditions.filter((p) => p.certified && entering.some((s) => F.evaluate(p.formula, (v) => s.input.get(v) ?? 0n)));
    if (answers.length > 0) {
      return answers.map((p) => ({
        bound: L.toC(bound),
        boundExpr: bound,
        precondition: p.expression,
        preconditionFormula: p.formula,
        certified: true,
        locallyWeakest: p.locallyOptimal,
        invariants: p.invariants,
      }));
    }
    lastReason = `${lastReason}; no precondition found under which ${L.toC(bound)} bounds it${result.reason ? ` (${result.reason})` : ''}`;
  }
  return [{ bound: null, boundExpr: null, precondition: '1', preconditionFormula: F.TRUE, certified: false, invariants: [], reason: lastReason }];
}

/** An observed input on which the loop (procedure) runs exactly `bound` times (calls), confirmed by
 * running it again; the longest such run is the most telling witness. */
function tightInput(samples: readonly IterationSample[], bound: Linear, recount: (input: State, nondet: readonly bigint[]) => bigint | null): TightnessEvidence | undefined {
  for (const s of [...samples].sort((a, b) => (a.iterations > b.iterations ? -1 : a.iterations < b.iterations ? 1 : 0))) {
    const value = L.evaluate(bound, (v) => s.input.get(v) ?? 0n);
    if (value === s.iterations && recount(s.input, s.nondet ?? []) === value) return { input: s.input, nondet: s.nondet ?? [], iterations: value };
  }
  return undefined;
}

/** Conditions tried for a case split, and candidate bounds per case (each candidate is one proof). */
const MAX_CASE_SPLITS = 3;
const CASE_CANDIDATES = 2;

interface RankedSplit {
  readonly c: Formula;
  readonly slack: bigint;
  /** The two fits' slack is at most half of one fit's. */
  readonly muchTighter: boolean;
}

function holdsOn(f: Formula, s: IterationSample): boolean {
  return F.evaluate(f, (v) => s.input.get(v) ?? 0n);
}

/** Conditions for a case split that make the fits to the runs tighter (or leave one case without
 * runs), tightest first. */
function rankedSplits(program: Program, fn: string, params: readonly string[], samples: readonly IterationSample[]): RankedSplit[] {
  const { plain, differences } = splitConditions(program, fn, params);
  // The differences are ranked with the rest only when no condition of the program's own splits the
  // runs far better: each wrong first choice costs failed proofs.
  const ranked = rankConditions(plain, params, samples);
  if (ranked[0]?.muchTighter || differences.length === 0) return ranked;
  return rankConditions([...plain, ...differences], params, samples);
}

function rankConditions(conditions: readonly Formula[], params: readonly string[], samples: readonly IterationSample[]): RankedSplit[] {
  const bestSlack = (side: readonly IterationSample[]): bigint => fitBounds(params, side, 1)[0]?.slack ?? 0n;
  const whole = bestSlack(samples);
  return conditions
    .map((c) => {
      const slack = bestSlack(samples.filter((s) => holdsOn(c, s))) + bestSlack(samples.filter((s) => !holdsOn(c, s)));
      return { c, slack, muchTighter: 2n * slack <= whole && slack < whole };
    })
    .filter((r) => r.slack < whole || samples.every((s) => holdsOn(r.c, s)))
    .sort((a, b) => (a.slack < b.slack ? -1 : a.slack > b.slack ? 1 : 0));
}

/**
 * A bound split into cases on a condition c over the inputs: the tightest fit to the observed runs
 * with c, proved with assume(c) at the entry, and the same for ¬c (a case no observed run enters gets
 * the bound 0). A case with no bound of its own is split again on another condition, once (sums of
 * maxima such as max(0, x) + max(0, y) need four cases). The conditions are tried in their rank
 * (rankedSplits), at most MAX_CASE_SPLITS at each level; the cases returned partition the inputs.
 */
async function searchCaseSplit(
  params: readonly string[], samples: readonly IterationSample[], ranked: readonly RankedSplit[],
  recount: (input: State, nondet: readonly bigint[]) => bigint | null, options: Internal, line: number,
  prove: (bound: Linear, assumeAtEntry: Formula) => Promise<VerifyResult>,
  within: Formula = F.TRUE,
): Promise<LoopAnswer[] | null> {
  for (const { c } of ranked.slice(0, MAX_CASE_SPLITS)) {
    const cases: LoopAnswer[] = [];
    let complete = true;
    for (const side of [c, negated(c)]) {
      if (options.deadline.passed) return null;
      const when = within === F.TRUE ? side : F.and(within, side);
      const inside = samples.filter((s) => holdsOn(side, s));
      // As at the top: where a second split fits this side's runs far better, it goes first (a
      // one-bound guess that cannot be proved costs a whole verify's budget).
      const others = within === F.TRUE ? ranked.map((r) => r.c).filter((d) => F.toC(d) !== F.toC(c)) : [];
      const sub = others.length > 0 ? rankConditions(others, params, inside) : [];
      const splitAgain = () => searchCaseSplit(params, inside, sub, recount, options, line, prove, when);
      let found = sub[0]?.muchTighter ? await splitAgain() : null;
      if (!found) {
        const search = await searchFittedBound(params, inside, recount, { ...options, candidates: CASE_CANDIDATES }, line, (bound) => prove(bound, when), options.deadline);
        if (search.proved) {
          const { bound, result } = search.proved;
          const tight = tightInput(inside, bound, recount);
          found = [{
            bound: L.toC(bound), boundExpr: bound, precondition: F.toC(when), preconditionFormula: when, certified: true, caseSplit: true,
            invariants: result.invariants.map((i) => ({ line: i.line, expression: i.expression })),
            ...(tight ? { tight } : {}),
          }];
        } else if (sub.length > 0 && !sub[0]!.muchTighter) {
          found = await splitAgain();
        }
      }
      if (!found) {
        complete = false;
        break;
      }
      cases.push(...found);
    }
    if (complete) return cases;
  }
  return null;
}

/** Atoms of the function's conditions over its parameters only (an if's two edges give one), then
 * each parameter's sign, then the differences of two of them: candidate case splits of a loop bound. */
function splitConditions(program: Program, fn: string, params: readonly string[]): { plain: Formula[]; differences: Formula[] } {
  const found = new Map<string, Formula>();
  const add = (atom: Formula): void => {
    if (atom.kind !== 'atom' || atom.rel !== '>=') return;
    if (!L.variablesOf(atom.expr).every((v) => params.includes(v)) || L.variablesOf(atom.expr).length === 0) return;
    if (!found.has(F.toC(negated(atom)))) found.set(F.toC(atom), atom);
  };
  for (const edge of program.procedures.get(fn)!.edges) {
    if ((edge.stmt.kind !== 'assume' || edge.stmt.premise) && edge.stmt.kind !== 'assert') continue;
    for (const cube of F.dnf(edge.stmt.cond)) for (const atom of cube) add(atom);
  }
  const tests = [...found.values()];
  for (const p of params) add(F.geqZero(L.variable(p)));
  const plain = [...found.values()];
  // Which of two tests holds longer: the difference of two of the program's conditions decides a
  // maximum of their distances (NoriSharma's max(M - i, N - j), y - x + max(0, y - z)).
  for (let i = 0; i < tests.length; i++) {
    for (let j = i + 1; j < tests.length; j++) {
      const [a, b] = [tests[i]!, tests[j]!];
      if (a.kind === 'atom' && b.kind === 'atom') add(F.geqZero(L.sub(a.expr, b.expr)));
    }
  }
  return { plain, differences: [...found.values()].slice(plain.length) };
}

interface FittedSearch {
  readonly proved?: { readonly bound: Linear; readonly result: VerifyResult };
  /** The first candidate no run refuted (the proof may just have run out of time). */
  readonly unrefuted: Linear | null;
  readonly reason: string;
}

/**
 * The search loops and recursive procedures share: the best-ranked fit to the observations not tried
 * yet is sent to `prove`; a replayed run that exceeds it is recounted and becomes one more observation
 * (`samples` grows), and the fit is redone.
 */
async function searchFittedBound(
  params: readonly string[],
  samples: IterationSample[],
  recount: (input: State, nondet: readonly bigint[]) => bigint | null,
  options: Internal,
  line: number,
  prove: (bound: Linear) => Promise<VerifyResult>,
  deadline: Deadline,
): Promise<FittedSearch> {
  const tried = new Set<string>();
  let unrefuted: Linear | null = null;
  let reason = 'no candidate bound';
  for (let attempt = 0; attempt < (options.candidates ?? 4) && !deadline.passed; attempt++) {
    const candidate = fitBounds(params, samples).find((c) => !tried.has(L.key(c.bound)));
    if (!candidate) break;
    tried.add(L.key(candidate.bound));
    unrefuted ??= candidate.bound;
    const text = L.toC(candidate.bound);
    options.onBoundsProgress?.({ kind: 'candidate', line, bound: text });
    const result = await prove(candidate.bound);
    tallyVerify(options.tally, result.stats);
    if (result.verdict === 'safe' && result.certified) return { proved: { bound: candidate.bound, result }, unrefuted, reason: '' };
    if (result.verdict === 'unsafe' && result.counterexample) {
      const { inputs, nondet } = result.counterexample;
      const more = recount(inputs, nondet);
      if (more !== null) samples.push({ input: inputs, iterations: more, nondet });
      unrefuted = null;
      reason = `the bound ${text} is exceeded on a replayed run`;
    } else reason = result.reason ?? `the bound ${text} was not proved`;
  }
  return { unrefuted, reason };
}

function lineOf(program: Program, fn: string, header: number): number {
  const proc = program.procedures.get(fn)!;
  return (proc.locations[header]?.pos ?? proc.pos).line;
}

function reachableProcedures(program: Program, fn: string): string[] {
  const seen = new Set([fn]);
  const work = [fn];
  while (work.length > 0) {
    const p = program.procedures.get(work.pop()!)!;
    for (const e of p.edges) if (e.stmt.kind === 'call' && !seen.has(e.stmt.callee)) {
      seen.add(e.stmt.callee);
      work.push(e.stmt.callee);
    }
  }
  return [...seen];
}

/** Calls of each recursive procedure during one call of `fn`: fitted to runs, proved with summaries. */
async function boundCalls(program: Program, fn: string, params: readonly string[], recursive: readonly string[], options: Internal): Promise<ProcedureBound[]> {
  const counted = withCallCounters(program, fn, recursive);
  const samples = new Map<string, IterationSample[]>(recursive.map((p) => [p, []]));
  let steps = 0; // of the observation runs, against OBSERVATION_STEPS (work, not time)
  const observe = (input: State, nondet: readonly bigint[]): Map<string, bigint> | null => {
    const run = runProgram(counted.program, { entry: counted.wrapper, inputs: input, nondet: [...nondet], nondetDefault: 0n, maxSteps: CALL_COUNT_RUN_STEPS, recordTrace: true });
    steps += run.steps;
    if (run.outcome.kind !== 'exit') return null;
    const out = new Map<string, bigint>();
    for (const step of run.trace ?? []) {
      if (step.depth !== 0) continue;
      for (const [p, c] of counted.counters) if (step.values.has(c.observed)) out.set(p, step.values.get(c.observed)!);
    }
    return out;
  };
  const inputs = params.length === 0 ? [new Map<string, bigint>()] : candidateInputs(params, { radius: params.length === 1 ? 25 : undefined }).filter((i) => [...i.values()].every((v) => v >= -100n && v <= 100n));
  for (const input of inputs) {
    if (steps >= OBSERVATION_STEPS) break;
    for (const [p, n] of observe(input, []) ?? []) if (n > 0n) samples.get(p)!.push({ input, iterations: n, nondet: [] });
  }
  const out: ProcedureBound[] = [];
  for (const p of recursive) {
    const all = samples.get(p)!;
    // Every call counts, so no linear bound holds where the recursion stops at once for unboundedly many
    // inputs (sum(n) makes max(1, n + 1) calls). Then the bound is sought under the precondition that
    // the inputs are at least their least value among the runs that recursed (n >= 1), checked as well.
    const recursed = all.filter((s) => s.iterations > 1n);
    const floors = params.flatMap((v) => {
      const low = recursed.reduce<bigint | null>((m, s) => (m === null || s.input.get(v)! < m ? s.input.get(v)! : m), null);
      const anyBelow = all.some((s) => s.input.get(v)! < (low ?? 0n));
      return low !== null && anyBelow ? [F.compare(L.variable(v), '>=', L.constant(low))] : [];
    });
    const conditional = floors.length > 0 ? F.and(...floors) : null;
    let found: ProcedureBound | null = null;
    let reason = 'no candidate bound';
    for (const pre of conditional ? [F.TRUE, conditional] : [F.TRUE]) {
      const inside = all.filter((s) => F.evaluate(pre, (v) => s.input.get(v) ?? 0n));
      // Where the runs already show the recursion stopping at once below a floor, a bound for every
      // input is unlikely: it gets one candidate, and the conditional search the usual ones (work,
      // not a share of the time, so that the order of the answers does not depend on load).
      const attempt = await proveCalls(program, fn, params, recursive, p, pre, inside, observe, pre === F.TRUE && conditional ? { ...options, candidates: 1 } : options);
      if (attempt.found) {
        found = attempt.found;
        break;
      }
      reason = attempt.reason;
    }
    out.push(found ?? { function: fn, procedure: p, bound: null, boundExpr: null, precondition: '1', preconditionFormula: F.TRUE, certified: false, summaries: [], reason });
    options.onBoundsProgress?.({ kind: 'result', line: program.procedures.get(p)!.pos.line, bound: found?.bound ?? null, verdict: found ? 'certified' : 'unknown' });
  }
  return out;
}

async function proveCalls(
  program: Program, fn: string, params: readonly string[], recursive: readonly string[], p: string, pre: Formula,
  samples: IterationSample[], observe: (input: State, nondet: readonly bigint[]) => Map<string, bigint> | null, options: Internal,
): Promise<{ found?: ProcedureBound; reason: string }> {
  const recount = (input: State, nondet: readonly bigint[]) => observe(input, nondet)?.get(p) ?? null;
  const search = await searchFittedBound(params, samples, recount, options, program.procedures.get(p)!.pos.line, (bound) => {
    const asserted = withCallCounters(program, fn, recursive, new Map([[p, bound]]), pre);
    // The wrapper's own cut-set: the engine's default.
    return constraintEngine.run(Problem.of(asserted.program, asserted.wrapper), withCutset(options.settings, 'paths'), {
      constraints: proofSearch(options, (event) => ({ kind: 'bound-proof', line: program.procedures.get(p)!.pos.line, bound: L.toC(bound), event })),
    });
  }, options.deadline);
  if (!search.proved) return { reason: search.reason };
  const { bound, result } = search.proved;
  const tight = tightInput(samples, bound, recount);
  return {
    reason: '',
    found: {
      function: fn, procedure: p, bound: L.toC(bound), boundExpr: bound, precondition: pre === F.TRUE ? '1' : F.toC(pre), preconditionFormula: pre, certified: true,
      summaries: (result.summaries ?? []).flatMap((s) => s.pairs.map((pair) => `${s.procedure}: ${pair.pre} => ${pair.post}`)),
      ...(tight ? { tight } : {}),
    },
  };
}
