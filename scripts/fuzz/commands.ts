// Every command against brute force (issue 19, item 5): one program goes through verify (the
// constraint engine and each interpolation engine), wp, sp, bounds, cex and nonterm, and every claim
// they certify is checked on concrete runs of the ORIGINAL program over a bounded input box (each
// parameter in -R..R, and for programs that read nondet values several seeded streams besides the
// all-default one). A disagreement is a certified claim a run contradicts, an "unsafe" or a
// counterexample that does not fail when replayed, a ClaimContradicted thrown by farkas' own guard
// ('guard'), or any other error that escapes ('internal'). The checks are plain functions of a box
// and a result, so a deliberately wrong result can be handed to them (command-fuzz.test.ts).
import * as F from '../../lib/ir/formula.js';
import type { Formula } from '../../lib/ir/formula.js';
import * as L from '../../lib/ir/linear.js';
import type { Program } from '../../lib/ir/cfg.js';
import { runProgram, type RunOutcome } from '../../lib/interpreter/index.js';
import { completedSteps, loopEdges, mostIterations, runCountingIterations, type LoopEdges } from '../../lib/guard/bounds-guard.js';
import { runText } from '../../lib/guard/runs.js';
import { ClaimContradicted } from '../../lib/guard/claim.js';
import { InputError } from '../../lib/diagnostics.js';
import { AnalysisUnsupported } from '../../lib/problem/prepare.js';
import type { VerifyResult } from '../../lib/result.js';
import { availableEngines, engineByName } from '../../lib/engines/index.js';
import { wp } from '../../lib/conditions/wp.js';
import { sp } from '../../lib/conditions/sp.js';
import { cex, type CexCondition } from '../../lib/conditions/cex.js';
import { nondetAsParameters } from '../../lib/conditions/nondet-inputs.js';
import { verifyPortfolio } from '../../lib/portfolio/index.js';
import { exportProblem } from '../../lib/export/index.js';
import { chcAnswer, readChc, type ChcAnswer } from '../../lib/chc/index.js';
import { verify } from '../../lib/engines/constraint/verify.js';
import { nonterm, type NontermCondition, type NontermResult } from '../../lib/termination/nonterm.js';
import { bounds, type BoundsResult, type LoopBound } from '../../lib/termination/bounds.js';
import type { ConditionAnswer, SpResult } from '../../lib/conditions/types.js';

/** What the checks read of a precondition, postcondition or condition. */
export type Claimed = Pick<ConditionAnswer, 'expression' | 'formula' | 'certified'> & { readonly neighbours?: ConditionAnswer['neighbours'] };
import { mulberry32 } from '../../lib/random.js';
import { Problem } from '../../lib/problem/prepare.js';
import { resolveSettings } from '../../lib/settings.js';

/** `chc`: the program exported as Horn clauses (verify --emit chc) and solved by the CHC front end;
 * its sat must hold of the C program's runs (the export over-approximates them). */
export type CommandName = 'verify' | 'wp' | 'sp' | 'bounds' | 'cex' | 'nonterm' | 'chc';
export const COMMANDS: readonly CommandName[] = ['verify', 'wp', 'sp', 'bounds', 'cex', 'nonterm', 'chc'];

export interface Disagreement {
  /** `verify/constraints`, `verify/symbolic`, `wp`, … */
  readonly command: string;
  /** 'claim': a certified claim contradicted by a run (or a counterexample that does not replay);
   * 'guard': farkas' own claim guard threw ClaimContradicted; 'internal': another error escaped. */
  readonly kind: 'claim' | 'guard' | 'internal';
  readonly message: string;
}

// ---------------------------------------------------------------------------------------------
// Brute force over the input box.

export interface BoxOptions {
  /** Each parameter ranges over -radius..radius (default: 8 for one parameter, 4 for two, 3 for three or more)… */
  readonly radius?: number;
  /** …and ±each of these (default: 16 and 40 for one parameter, 12 for more). */
  readonly far?: readonly number[];
  /** Seeded nondet streams per input, for inputs whose run reads nondet values (default 4). */
  readonly streams?: number;
  /** Values in each stream (default 32; past them the default 0). */
  readonly streamLength?: number;
  /** Steps of one run (default 4000); a run cut off is not evidence of anything but iterations made. */
  readonly maxSteps?: number;
  readonly seed?: number;
}

export interface BoxRun {
  readonly input: ReadonlyMap<string, bigint>;
  /** The stream given (the run continues with 0s past it); [] for the all-default run. */
  readonly nondet: readonly bigint[];
  readonly outcome: RunOutcome;
  /** The function's state (globals, locals, parameters) when it returned; null when it did not. */
  readonly exitState: ReadonlyMap<string, bigint> | null;
  /** Per loop of `Box.edges.loops`: the most body entries within one entry into it. */
  readonly iterations: readonly bigint[];
  readonly steps: number;
  /** Whole programs (streamBox): the values the run's nondet reads outside loops took, by the names
   * cex's conditions give them (nondet_1, nondet_2, …); absent from bruteForce's runs. */
  readonly nondetInputs?: ReadonlyMap<string, bigint>;
}

export interface Box {
  readonly function: string;
  readonly parameters: readonly string[];
  readonly edges: LoopEdges;
  readonly runs: readonly BoxRun[];
  readonly maxSteps: number;
  readonly radius: number;
}

export function bruteForce(program: Program, fn: string, options: BoxOptions = {}): Box {
  const proc = program.procedures.get(fn)!;
  const parameters = [...proc.params];
  const radius = options.radius ?? (parameters.length <= 1 ? 8 : parameters.length === 2 ? 4 : 3);
  const maxSteps = options.maxSteps ?? 4000;
  const streams = options.streams ?? 4;
  const streamLength = options.streamLength ?? 32;
  const next = mulberry32(options.seed ?? 1);
  const edges = loopEdges(proc);
  let inputs: Map<string, bigint>[] = [new Map()];
  const far = options.far ?? (parameters.length <= 1 ? [16, 40] : [12]);
  const values = [...Array.from({ length: 2 * radius + 1 }, (_, i) => BigInt(i - radius)), ...far.flatMap((v) => [BigInt(-v), BigInt(v)])];
  for (const p of parameters) {
    inputs = inputs.flatMap((m) => values.map((v) => new Map([...m, [p, v]])));
  }
  const runs: BoxRun[] = [];
  /** Runs `input` on `nondet`; whether the run read a nondet value (or the default past the stream). */
  const one = (input: ReadonlyMap<string, bigint>, nondet: readonly bigint[]): boolean => {
    const r = runProgram(program, { entry: fn, inputs: input, nondet: [...nondet], nondetDefault: 0n, maxSteps, recordTrace: true, watch: { locations: new Set([proc.exit]), firstAndLast: 0 } });
    const exitState = r.outcome.kind === 'exit' ? (r.watched?.get(proc.exit)?.at(-1) ?? null) : null;
    if (r.outcome.kind === 'exit' && !exitState) throw new Error('checker: a run returned without a state at the exit');
    // Iterations as bounds and its guard count them: an assertion that fails on the edge into the body
    // (assumed by bounds) stops the run before that iteration (completedSteps drops the failing step).
    runs.push({ input, nondet, outcome: r.outcome, exitState, iterations: mostIterations(edges, completedSteps(r)), steps: r.steps });
    return r.nondetConsumed.length > 0;
  };
  for (const input of inputs) {
    // A run that read no nondet value is the only run from its input.
    if (!one(input, [])) continue;
    for (let s = 0; s < streams; s++) one(input, Array.from({ length: streamLength }, () => BigInt(Math.floor(next() * 7) - 3)));
  }
  return { function: fn, parameters, edges, runs, maxSteps, radius };
}

/** A box of chosen runs of a whole program (a function that reads its inputs with
 * __VERIFIER_nondet_*()): one run per nondet stream, exactly that stream (no default past it), each
 * recording the values its reads outside loops took under the names cex's conditions give them
 * (lib/conditions/nondet-inputs.ts), so a failing condition over them can be held to the runs. */
export function streamBox(program: Program, fn: string, streams: readonly (readonly bigint[])[], options: { readonly maxSteps?: number } = {}): Box {
  const proc = program.procedures.get(fn)!;
  const { byEdge } = nondetAsParameters(program, fn);
  const maxSteps = options.maxSteps ?? 1_000_000;
  const edges = loopEdges(proc);
  const runs = streams.map((stream): BoxRun => {
    const r = runProgram(program, { entry: fn, nondet: [...stream], nondetDefault: null, maxSteps, recordTrace: true, watch: { locations: new Set([proc.exit]), firstAndLast: 0 } });
    const exitState = r.outcome.kind === 'exit' ? (r.watched?.get(proc.exit)?.at(-1) ?? null) : null;
    if (r.outcome.kind === 'exit' && !exitState) throw new Error('checker: a run returned without a state at the exit');
    const nondetInputs = new Map<string, bigint>();
    for (const step of r.trace ?? []) {
      const parameter = step.depth === 0 && step.procedure === fn && step.kind === 'edge' ? byEdge.get(step.edge) : undefined;
      if (parameter !== undefined && step.nondet?.length === 1) nondetInputs.set(parameter, step.nondet[0]!);
    }
    return { input: new Map(), nondet: [...stream], outcome: r.outcome, exitState, iterations: mostIterations(edges, completedSteps(r)), steps: r.steps, nondetInputs };
  });
  return { function: fn, parameters: [...proc.params], edges, runs, maxSteps, radius: 0 };
}

function failed(run: BoxRun): boolean {
  return run.outcome.kind === 'assertion-failed';
}

function describe(run: { readonly input: ReadonlyMap<string, bigint>; readonly nondet: readonly bigint[] }): string {
  return runText(run.input, run.nondet);
}

function outcomeText(outcome: RunOutcome): string {
  switch (outcome.kind) {
    case 'assertion-failed': return `fails the assertion on line ${outcome.pos.line}`;
    case 'exit': return 'returns';
    case 'step-limit': return `runs past ${outcome.max} steps`;
    case 'overflow': return `overflows on line ${outcome.pos.line}`;
    case 'assume-blocked': return 'is blocked by an assumption';
    case 'nondet-exhausted': return 'runs out of nondet values';
    case 'nondet-out-of-range': return `reads the out-of-range value ${outcome.value}`;
  }
}

/** The formula over exactly the parameters (a claim about inputs); null when it names anything else. */
function overParameters(f: Formula, parameters: readonly string[]): Formula | null {
  return [...F.variablesOf(f)].every((v) => parameters.includes(v)) ? f : null;
}

function holdsOn(f: Formula, state: ReadonlyMap<string, bigint>): boolean {
  return F.evaluate(f, (v) => {
    const value = state.get(v);
    if (value === undefined) throw new Error(`checker: the formula ${F.toC(f)} names ${v}, which the state lacks`);
    return value;
  });
}

/** Replays a run exactly (no default past the stream): a counterexample must fail an assertion. */
function replay(program: Program, fn: string, input: ReadonlyMap<string, bigint>, nondet: readonly bigint[]): RunOutcome {
  return runProgram(program, { entry: fn, inputs: input, nondet: [...nondet], nondetDefault: null, maxSteps: 1_000_000 }).outcome;
}

// ---------------------------------------------------------------------------------------------
// The checks: each a function of the box and a result.

/** A failing run known outside the box (a counterexample that replayed): it refutes safety claims too. */
export interface KnownFailure {
  readonly input: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
  readonly from: string;
}

/** How much a check looked at: claims checked, and (claim, run) pairs that could have refuted one
 * (a run inside a precondition, a run that returned, …). Zero runs means the claim went untested. */
export interface Seen {
  claims: number;
  runs: number;
}

export interface CheckContext {
  /** Named in the disagreements (default: the check's command). */
  readonly command?: string;
  /** Replayed failing runs are added here (verify, cex), for checkKnownFailures. */
  readonly failures?: KnownFailure[];
  readonly seen?: Seen;
}

function counter(context: CheckContext): (claims: number, runs: number) => void {
  return (claims, runs) => {
    if (!context.seen) return;
    context.seen.claims += claims;
    context.seen.runs += runs;
  };
}

/** `safe`: no run in the box fails. `unsafe`: the counterexample fails when replayed. */
export function checkVerify(program: Program, box: Box, result: Pick<VerifyResult, 'verdict' | 'counterexample'>, context: CheckContext = {}): Disagreement[] {
  const command = context.command ?? 'verify';
  const count = counter(context);
  const out: Disagreement[] = [];
  if (result.verdict === 'safe') {
    count(1, box.runs.length);
    const run = box.runs.find(failed);
    if (run) out.push({ command, kind: 'claim', message: `says safe, but the run on ${describe(run)} ${outcomeText(run.outcome)}` });
  } else if (result.verdict === 'unsafe') {
    count(1, 1);
    const c = result.counterexample;
    if (!c) out.push({ command, kind: 'claim', message: 'says unsafe without a counterexample' });
    else {
      const outcome = replay(program, box.function, c.inputs, c.nondet);
      if (outcome.kind !== 'assertion-failed') out.push({ command, kind: 'claim', message: `says unsafe, but its counterexample ${runText(c.inputs, c.nondet)} ${outcomeText(outcome)} when replayed` });
      else context.failures?.push({ input: c.inputs, nondet: c.nondet, from: `${command}'s counterexample` });
    }
  }
  return out;
}

/** Each certified precondition: no run in the box from an input satisfying it fails an assertion; and
 * each neighbour's witness (the evidence that the precondition is locally weakest) lies outside it and
 * fails an assertion when replayed. */
export function checkWp(program: Program, box: Box, result: { readonly preconditions: readonly Claimed[] }, context: CheckContext = {}): Disagreement[] {
  const command = context.command ?? 'wp';
  const count = counter(context);
  const out: Disagreement[] = [];
  for (const pre of result.preconditions) {
    const f = pre.certified ? overParameters(pre.formula, box.parameters) : null;
    if (!f) continue;
    const inside = box.runs.filter((r) => holdsOn(f, r.input));
    count(1, inside.length);
    const run = inside.find(failed);
    if (run) out.push({ command, kind: 'claim', message: `certified precondition ${pre.expression}, but the run on ${describe(run)} ${outcomeText(run.outcome)}` });
    for (const nb of pre.neighbours ?? []) {
      if (!nb.replayed || !nb.input) continue;
      count(0, 1);
      const nondet = nb.nondet ?? [];
      const outcome = replay(program, box.function, nb.input, nondet);
      if (outcome.kind !== 'assertion-failed') out.push({ command, kind: 'claim', message: `precondition ${pre.expression}: the witness ${runText(nb.input, nondet)} for its neighbour ${nb.expression} ${outcomeText(outcome)} when replayed` });
      if (holdsOn(f, nb.input)) out.push({ command, kind: 'claim', message: `precondition ${pre.expression}: the witness ${runText(nb.input, nondet)} for its neighbour ${nb.expression} lies inside the precondition` });
    }
  }
  return out;
}

/** The certified postcondition at the exit holds in the final state of every run in the box that
 * returns (runs that fail an assertion are not among them: sp assumes the assertions); and each
 * neighbour's witness (the evidence that it is locally strongest) is a state inside the postcondition
 * that the witness's run returns with. */
export function checkSp(program: Program, box: Box, result: { readonly postcondition: Claimed | null; readonly at: SpResult['at'] }, context: CheckContext = {}): Disagreement[] {
  const command = context.command ?? 'sp';
  const count = counter(context);
  const post = result.postcondition;
  if (!post || !post.certified || result.at !== 'exit') return [];
  const out: Disagreement[] = [];
  const returned = box.runs.filter((r) => r.exitState);
  count(1, returned.length);
  const run = returned.find((r) => !holdsOn(post.formula, r.exitState!));
  if (run) out.push({ command, kind: 'claim', message: `certified postcondition ${post.expression}, but the run on ${describe(run)} returns with ${stateText(run.exitState!)}` });
  const exit = program.procedures.get(box.function)!.exit;
  for (const nb of post.neighbours ?? []) {
    if (!nb.replayed || !nb.input || !nb.state) continue;
    count(0, 1);
    const nondet = nb.nondet ?? [];
    const r = runProgram(program, { entry: box.function, inputs: nb.input, nondet: [...nondet], nondetDefault: null, maxSteps: 1_000_000, watch: { locations: new Set([exit]), firstAndLast: 0 } });
    const final = r.outcome.kind === 'exit' ? r.watched?.get(exit)?.at(-1) : undefined;
    const witness = `the witness ${runText(nb.input, nondet)} for its neighbour ${nb.expression}`;
    if (!final) out.push({ command, kind: 'claim', message: `postcondition ${post.expression}: ${witness} ${outcomeText(r.outcome)}` });
    else if (![...nb.state].every(([v, value]) => final.get(v) === value)) out.push({ command, kind: 'claim', message: `postcondition ${post.expression}: ${witness} returns with ${stateText(final)}, not with ${stateText(nb.state)}` });
    if (!holdsOn(post.formula, nb.state)) out.push({ command, kind: 'claim', message: `postcondition ${post.expression}: the state ${stateText(nb.state)} of ${witness} lies outside it` });
  }
  return out;
}

function stateText(state: ReadonlyMap<string, bigint>): string {
  return [...state].filter(([v]) => !v.startsWith('__')).map(([v, x]) => `${v}=${x}`).join(', ');
}

/** Each certified loop bound over the parameters: no run in the box satisfying its precondition enters
 * the loop's body more often per entry than max(0, bound); and where the bound is called tight, the
 * run on that input makes exactly the bound's iterations. */
export function checkLoopBounds(program: Program, box: Box, loops: readonly LoopBound[], context: CheckContext = {}): Disagreement[] {
  const command = context.command ?? 'bounds';
  const count = counter(context);
  const out: Disagreement[] = [];
  for (const loop of loops) {
    if (!loop.certified || !loop.boundExpr) continue;
    const pre = overParameters(loop.preconditionFormula, box.parameters);
    if (!pre || !L.variablesOf(loop.boundExpr).every((v) => box.parameters.includes(v))) continue;
    const index = box.edges.loops.findIndex((l) => l.line === loop.line && l.col === loop.col);
    count(1, 0);
    if (index < 0) {
      out.push({ command, kind: 'claim', message: `a bound for a loop at line ${loop.line}, column ${loop.col}, where the program has none` });
      continue;
    }
    const bound = loop.boundExpr;
    const inside = box.runs.filter((r) => r.outcome.kind !== 'nondet-out-of-range' && holdsOn(pre, r.input));
    count(0, inside.length);
    for (const run of inside) {
      const value = L.evaluate(bound, (v) => run.input.get(v)!);
      const allowed = value < 0n ? 0n : value;
      if (run.iterations[index]! > allowed) {
        const under = loop.precondition === '1' ? '' : ` under ${loop.precondition}`;
        out.push({ command, kind: 'claim', message: `certified bound ${loop.bound}${under} for the loop on line ${loop.line} (${allowed} here), but the run on ${describe(run)} makes ${run.iterations[index]} iterations` });
        break;
      }
    }
    const tight = loop.tight;
    if (tight && holdsOn(pre, tight.input)) {
      count(0, 1);
      const value = L.evaluate(bound, (v) => tight.input.get(v)!);
      const counted = runCountingIterations(program, box.function, box.edges, tight.input, tight.nondet, { maxSteps: 1_000_000 });
      const made = counted.iterations[index]!;
      const where = `the loop on line ${loop.line} is tight on ${runText(tight.input, tight.nondet)} with ${tight.iterations} iterations`;
      if (tight.iterations !== (value < 0n ? 0n : value)) out.push({ command, kind: 'claim', message: `${where}, but the bound ${loop.bound} is ${value} there` });
      else if (counted.outcome.kind !== 'step-limit' && made !== tight.iterations) out.push({ command, kind: 'claim', message: `${where}, but the run makes ${made}` });
    }
  }
  return out;
}

/** Each condition's input lies inside it and fails an assertion when replayed; and from every input in
 * the box inside a certified condition over the parameters alone (or, in a streamBox, over the
 * parameters and the nondet values read outside loops), no run returns normally. "Proved safe" (no
 * counterexample exists) is a safety claim: no run in the box fails an assertion. */
export function checkCex(program: Program, box: Box, result: { readonly conditions: readonly (Claimed & Pick<CexCondition, 'input' | 'nondet'>)[]; readonly provedSafe?: unknown }, context: CheckContext = {}): Disagreement[] {
  const command = context.command ?? 'cex';
  const count = counter(context);
  const out: Disagreement[] = [];
  if (result.provedSafe) out.push(...checkVerify(program, box, { verdict: 'safe' }, { ...context, command }));
  for (const c of result.conditions) {
    count(1, 1);
    const input = new Map([...c.input].filter(([v]) => box.parameters.includes(v)));
    const outcome = replay(program, box.function, input, c.nondet);
    if (outcome.kind !== 'assertion-failed') out.push({ command, kind: 'claim', message: `condition ${c.expression}: its input ${runText(input, c.nondet)} ${outcomeText(outcome)} when replayed` });
    else context.failures?.push({ input, nondet: c.nondet, from: `${command}'s input for ${c.expression}` });
    if (!F.evaluate(c.formula, (v) => c.input.get(v) ?? 0n)) out.push({ command, kind: 'claim', message: `condition ${c.expression}: its input ${runText(c.input, [])} lies outside it` });
    if (!c.certified) continue;
    const f = c.formula;
    const named = [...F.variablesOf(f)];
    // A run whose values do not name every variable of the condition cannot be placed inside or outside it.
    const inside = box.runs.filter((r) => {
      const values = r.nondetInputs ? new Map([...r.input, ...r.nondetInputs]) : r.input;
      return named.every((v) => values.has(v)) && holdsOn(f, values);
    });
    count(0, inside.length);
    const run = inside.find((r) => r.outcome.kind === 'exit');
    if (run) out.push({ command, kind: 'claim', message: `certified failing condition ${c.expression}, but the run on ${describe(run)} returns` });
  }
  return out;
}

/** Whether a run cut off in the box still goes on with ten times the steps (truly looping, as far as
 * a run can tell). */
function loopsOn(program: Program, box: Box, run: BoxRun): RunOutcome {
  return runProgram(program, { entry: box.function, inputs: run.input, nondet: [...run.nondet], nondetDefault: 0n, maxSteps: 10 * box.maxSteps }).outcome;
}

/** Non-termination conditions: from an input inside one no run returns, and none fails an assertion
 * (the condition is a precondition of the program with `assert(0)` at its exit, assertions kept); the
 * input shown does not return. `terminates`: every run in the box ends, and the bounds given for it hold. */
export function checkNonterm(program: Program, box: Box, result: Pick<NontermResult, 'verdict' | 'bounds'> & { readonly conditions: readonly (Claimed & Pick<NontermCondition, 'input'>)[] }, context: CheckContext = {}): Disagreement[] {
  const command = context.command ?? 'nonterm';
  const count = counter(context);
  const out: Disagreement[] = [];
  for (const c of result.conditions) {
    count(1, 0);
    if (c.input) {
      count(0, 1);
      const shown = runProgram(program, { entry: box.function, inputs: c.input, nondet: [], nondetDefault: 0n, maxSteps: 2000 }).outcome;
      if (shown.kind !== 'step-limit') out.push({ command, kind: 'claim', message: `condition ${c.expression}: the run shown on ${runText(c.input, [])} ${outcomeText(shown)}` });
    }
    const f = c.certified ? overParameters(c.formula, box.parameters) : null;
    if (!f) continue;
    const inside = box.runs.filter((r) => holdsOn(f, r.input));
    count(0, inside.length);
    const run = inside.find((r) => r.outcome.kind === 'exit' || r.outcome.kind === 'assertion-failed');
    if (run) out.push({ command, kind: 'claim', message: `certified non-termination condition ${c.expression}, but the run on ${describe(run)} ${outcomeText(run.outcome)}` });
  }
  if (result.verdict === 'terminates') {
    count(1, box.runs.length);
    for (const run of box.runs) {
      if (run.outcome.kind !== 'step-limit') continue;
      const longer = loopsOn(program, box, run);
      if (longer.kind === 'step-limit') {
        out.push({ command, kind: 'claim', message: `says the function terminates, but the run on ${describe(run)} ${outcomeText(longer)}` });
        break;
      }
    }
    out.push(...checkLoopBounds(program, box, result.bounds ?? [], { ...context, command }));
  }
  return out;
}

/** Failing runs known from replayed counterexamples refute `safe`, preconditions that admit their
 * input, and non-termination conditions that admit it. */
export function checkKnownFailures(failures: readonly KnownFailure[], claims: {
  readonly safe: readonly string[];
  readonly preconditions: readonly { readonly command: string; readonly expression: string; readonly formula: Formula }[];
}): Disagreement[] {
  const out: Disagreement[] = [];
  const failure = failures[0];
  if (failure) for (const command of claims.safe) out.push({ command, kind: 'claim', message: `says safe, but ${failure.from} (${runText(failure.input, failure.nondet)}) fails when replayed` });
  for (const pre of claims.preconditions) {
    const hit = failures.find((f) => F.evaluate(pre.formula, (v) => f.input.get(v)!));
    if (hit) out.push({ command: pre.command, kind: 'claim', message: `certified ${pre.expression}, which admits ${hit.from} (${runText(hit.input, hit.nondet)}), a failing run` });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// One program through every command.

export interface Answer {
  readonly command: string;
  /** The tallied answer: safe/unsafe/unknown, found/none, all/some/none certified, … or unsupported, guard, error. */
  readonly answer: string;
  /** What was claimed, in a line (for the saved case). */
  readonly detail: string;
  readonly millis: number;
  /** Claims checked, and runs that could have refuted one. */
  readonly seen: Readonly<Seen>;
}

export interface ProgramReport {
  readonly answers: readonly Answer[];
  readonly disagreements: readonly Disagreement[];
  readonly box: { readonly runs: number; readonly failing: number; readonly returning: number; readonly cutOff: number };
}

export interface FuzzOptions {
  readonly commands?: readonly CommandName[];
  /** Verify engines by their registry names (default all: 'constraints' and the interpolation engines). */
  readonly engines?: readonly string[];
  readonly timeoutMs: number;
  readonly box?: BoxOptions;
  /** The runs to check claims on, instead of bruteForce's box (`box` is then not used). */
  readonly runs?: Box;
  /** Verify as `farkas verify FILE --timeout T` runs it (the portfolio with these jobs, the command's
   * defaults otherwise), tallied as 'verify', instead of each engine alone (`engines` is then not used). */
  readonly plainVerify?: { readonly jobs: number };
}

type Attempt<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly answer: string; readonly detail: string; readonly disagreement?: Disagreement };

async function attempt<T>(command: string, call: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (e) {
    if (e instanceof ClaimContradicted) return { ok: false, answer: 'guard', detail: e.message, disagreement: { command, kind: 'guard', message: e.message } };
    if (e instanceof InputError || e instanceof AnalysisUnsupported) return { ok: false, answer: 'unsupported', detail: e.message };
    const message = e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join(' | ') : String(e);
    return { ok: false, answer: 'error', detail: message, disagreement: { command, kind: 'internal', message } };
  }
}

export function verifyEngines(): string[] {
  return availableEngines();
}

export async function fuzzProgram(program: Program, options: FuzzOptions): Promise<ProgramReport> {
  const fn = program.entry;
  const commands = new Set(options.commands ?? COMMANDS);
  const timeoutMs = options.timeoutMs;
  const box = options.runs ?? bruteForce(program, fn, options.box);
  const answers: Answer[] = [];
  const disagreements: Disagreement[] = [];
  const failures: KnownFailure[] = [];
  const safe: string[] = [];
  const preconditions: { command: string; expression: string; formula: Formula }[] = [];
  const run = async <T>(command: string, call: () => Promise<T>, judge: (value: T, context: CheckContext) => { answer: string; detail: string; found: Disagreement[] }): Promise<void> => {
    const started = Date.now();
    const got = await attempt(command, call);
    const millis = Date.now() - started;
    const seen: Seen = { claims: 0, runs: 0 };
    if (!got.ok) {
      answers.push({ command, answer: got.answer, detail: got.detail, millis, seen });
      if (got.disagreement) disagreements.push(got.disagreement);
      return;
    }
    let judged;
    try {
      judged = judge(got.value, { command, failures, seen });
    } catch (e) {
      // A check that cannot be made (a formula over variables a run lacks) is a bug of this script.
      throw new Error(`checking ${command}: ${e instanceof Error ? e.message : String(e)}`);
    }
    answers.push({ command, answer: judged.answer, detail: judged.detail, millis, seen });
    disagreements.push(...judged.found);
  };

  const judgeVerify = (command: string) => (r: VerifyResult, context: CheckContext) => {
    if (r.verdict === 'safe') safe.push(command);
    const c = r.counterexample;
    return { answer: r.verdict, detail: r.verdict === 'unsafe' && c ? `unsafe: ${runText(c.inputs, c.nondet)}` : r.verdict + (r.reason ? ` (${r.reason})` : ''), found: checkVerify(program, box, r, context) };
  };
  if (commands.has('verify') && options.plainVerify) {
    // The command's defaults (cli/commands/verify.ts): the paths cut-set, the paper schedule, the auto back end.
    const jobs = options.plainVerify.jobs;
    await run('verify', () => verifyPortfolio(Problem.of(program), resolveSettings({ cutset: 'paths', schedule: 'paper', backend: 'auto', timeoutMs }), { jobs }), judgeVerify('verify'));
  } else if (commands.has('verify')) {
    for (const name of options.engines ?? verifyEngines()) {
      const command = `verify/${name}`;
      const engine = engineByName(name);
      if (!engine) throw new Error(`no engine '${name}' (engines: ${verifyEngines().join(', ')})`);
      await run(command, () => engine.run(Problem.of(program, fn), resolveSettings({ timeoutMs: timeoutMs })), judgeVerify(command));
    }
  }
  if (commands.has('chc')) {
    await run('chc', async (): Promise<ChcAnswer> => {
      const chc = readChc(exportProblem(program, 'chc', { function: fn }), `${program.file}.smt2`);
      return chcAnswer(chc, await verify(Problem.of(chc.program), resolveSettings({ cutset: 'headers', timeoutMs })));
    }, (r, context) => ({
      answer: r.verdict,
      detail: r.verdict + (r.reason ? ` (${r.reason})` : ''),
      // sat claims every run safe; unsat's derivation was confirmed on the clauses by evaluation.
      found: r.verdict === 'sat' ? checkVerify(program, box, { verdict: 'safe' }, context) : [],
    }));
  }
  if (commands.has('wp')) {
    await run('wp', () => wp(Problem.of(program, fn), resolveSettings({ timeoutMs })), (r, context) => {
      const certified = r.preconditions.filter((p) => p.certified);
      for (const p of certified) if (overParameters(p.formula, box.parameters)) preconditions.push({ command: 'wp', expression: p.expression, formula: p.formula });
      const answer = certified.some((p) => p.formula.kind === 'true') ? 'true' : certified.length > 0 ? 'found' : 'none';
      return { answer, detail: r.preconditions.map((p) => `${p.expression}${p.certified ? '' : ' (not certified)'}`).join(' ; ') || `none (${r.reason ?? ''})`, found: checkWp(program, box, r, context) };
    });
  }
  if (commands.has('sp')) {
    await run('sp', () => sp(Problem.of(program, fn), resolveSettings({ timeoutMs })), (r, context) => {
      const post = r.postcondition;
      return { answer: post?.certified ? 'found' : 'none', detail: post ? `${post.expression}${post.certified ? '' : ' (not certified)'}` : `none (${r.reason ?? ''})`, found: checkSp(program, box, r, context) };
    });
  }
  if (commands.has('bounds')) {
    await run('bounds', () => bounds(Problem.of(program, fn), resolveSettings({ timeoutMs })), (r: BoundsResult, context) => {
      const certified = r.loops.filter((l) => l.certified).length;
      const answer = r.loops.length === 0 ? 'no loops' : certified === r.loops.length ? 'all certified' : certified > 0 ? 'some certified' : 'none certified';
      const detail = r.loops.map((l) => `line ${l.line}: ${l.bound ?? 'none'}${l.precondition !== '1' ? ` under ${l.precondition}` : ''}${l.certified ? '' : ' (not certified)'}`).join(' ; ');
      return { answer, detail, found: checkLoopBounds(program, box, r.loops, context) };
    });
  }
  if (commands.has('cex')) {
    await run('cex', () => cex(Problem.of(program, fn), resolveSettings({ timeoutMs })), (r, context) => {
      if (r.provedSafe) safe.push('cex');
      const answer = r.conditions.length > 0 ? 'found' : r.provedSafe ? 'proved safe' : 'none';
      const detail = r.conditions.map((c) => `${c.expression}${c.certified ? '' : ' (not certified)'}: ${runText(c.input, c.nondet)}`).join(' ; ') || `none (${r.reason ?? ''})`;
      return { answer, detail, found: checkCex(program, box, r, context) };
    });
  }
  if (commands.has('nonterm')) {
    await run('nonterm', () => nonterm(Problem.of(program, fn), resolveSettings({ timeoutMs })), (r, context) => {
      for (const c of r.conditions) if (c.certified && overParameters(c.formula, box.parameters)) preconditions.push({ command: 'nonterm', expression: c.expression, formula: c.formula });
      return {
        answer: r.verdict,
        detail: r.verdict === 'non-terminating' ? r.conditions.map((c) => `${c.expression}${c.certified ? '' : ' (not certified)'}`).join(' ; ') : r.verdict + (r.reason ? ` (${r.reason})` : ''),
        found: checkNonterm(program, box, r, context),
      };
    });
  }
  // Counterexamples replayed above refute safety claims beyond the box.
  disagreements.push(...checkKnownFailures(failures, { safe, preconditions }));
  const boxStats = {
    runs: box.runs.length,
    failing: box.runs.filter(failed).length,
    returning: box.runs.filter((r) => r.outcome.kind === 'exit').length,
    cutOff: box.runs.filter((r) => r.outcome.kind === 'step-limit').length,
  };
  return { answers, disagreements: dedupe(disagreements), box: boxStats };
}

function dedupe(ds: readonly Disagreement[]): Disagreement[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const key = `${d.command}\u0000${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
