// Front half of the pipeline, shared by every analysis: pick the procedure, inline non-recursive
// calls, choose the cut-set, enumerate paths and build verification conditions — once per program
// and function (Problem), whichever layer asks first.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Program } from '../ir/cfg.js';
import { InputError } from '../diagnostics.js';
import { inlineCalls, type InlineResult } from '../ir/inline.js';
import { liveVariables } from '../ir/liveness.js';
import { prepareCutset, type CutsetStrategy, type PreparedCutset } from '../vc/cutset.js';
import { enumeratePaths } from '../vc/paths.js';
import { MAX_PATHS } from '../limits.js';
import { pathConditions, type VerificationCondition } from '../vc/vc.js';
import { makeTemplate, type Template, type TemplateShape } from '../constraints/template.js';

export interface PreparedAnalysis {
  readonly program: Program;
  readonly function: string;
  readonly cut: PreparedCutset;
  /** The program with the prepared procedure in place of the original (what the checker verifies). */
  readonly preparedProgram: Program;
  readonly precondition: Formula;
  readonly vcs: readonly VerificationCondition[];
  /** Cut-points whose invariants are unknown (all but entry and exit). */
  readonly unknownCutpoints: readonly number[];
  /** Template variables per unknown cut-point: the variables live there. */
  readonly variables: ReadonlyMap<number, readonly string[]>;
}

/** Analysis cannot proceed for a reason that is not the user's input (recursion, path explosion). */
export class AnalysisUnsupported extends Error {}

function resolveFunction(program: Program, name: string | undefined): string {
  const fn = name ?? program.entry;
  if (!program.procedures.has(fn)) {
    throw new InputError('error', `no function named '${fn}' (defined: ${[...program.procedures.keys()].join(', ')})`, null);
  }
  return fn;
}

/**
 * One function of one program, prepared once: the function resolved (a bad name is the user's input
 * error, raised here), its non-recursive calls inlined, and its analysis under each cut-set strategy,
 * each computed on first use and kept. `Problem.of` gives the same object for the same program and
 * function, so the layers of one command — verify and its summaries search, the engines of a
 * cross-check and the portfolio, pins, export, the UI — share one preparation and hand it down.
 * Programs are never changed once built; a transformation makes a new one, and a new Problem.
 */
export class Problem {
  /** Per program, per function. */
  private static readonly prepared = new WeakMap<Program, Map<string, Problem>>();
  private inlinedResult: InlineResult | undefined;
  private readonly analyses = new Map<string, { readonly analysis: PreparedAnalysis } | { readonly error: unknown }>();

  readonly function: string;

  private constructor(readonly program: Program, fn: string) {
    this.function = fn;
  }

  static of(program: Program, functionName?: string): Problem {
    const fn = resolveFunction(program, functionName);
    let byFunction = Problem.prepared.get(program);
    if (!byFunction) Problem.prepared.set(program, (byFunction = new Map()));
    let problem = byFunction.get(fn);
    if (!problem) byFunction.set(fn, (problem = new Problem(program, fn)));
    return problem;
  }

  /** The program with the function's non-recursive calls inlined (calls of recursive ones stay). */
  get inlined(): InlineResult {
    return (this.inlinedResult ??= inlineCalls(this.program, this.function));
  }

  /** Calls of recursive procedures remain after inlining: only procedure summaries can prove it. */
  get needsSummaries(): boolean {
    return this.inlined.recursiveCalls.length > 0;
  }

  /** The cut-set, paths and verification conditions under `strategy`; a program it does not support
   * (recursion, more paths than `maxPaths`) throws the same error on every call. */
  analysis(strategy: CutsetStrategy, maxPaths = MAX_PATHS): PreparedAnalysis {
    const key = `${strategy} ${maxPaths}`;
    let known = this.analyses.get(key);
    if (!known) {
      try {
        known = { analysis: analyse(this, strategy, maxPaths) };
      } catch (error) {
        known = { error };
      }
      this.analyses.set(key, known);
    }
    if ('error' in known) throw known.error;
    return known.analysis;
  }
}

/** The analysis of `functionName` in `program` under `strategy` (Problem.of(…).analysis(strategy)). */
export function prepareAnalysis(program: Program, functionName: string | undefined, strategy: CutsetStrategy): PreparedAnalysis {
  return Problem.of(program, functionName).analysis(strategy);
}

function analyse(problem: Problem, strategy: CutsetStrategy, maxPaths: number): PreparedAnalysis {
  const { program, function: fn, inlined } = problem;
  const proc = inlined.program.procedures.get(fn)!;
  if (proc.edges.some((e) => e.stmt.kind === 'call')) {
    const callees = [...new Set(proc.edges.flatMap((e) => (e.stmt.kind === 'call' ? [e.stmt.callee] : [])))];
    throw new AnalysisUnsupported(`recursive procedure(s) ${callees.join(', ')} need procedure summaries (farkas verify computes them)`);
  }
  const cut = prepareCutset(proc, strategy);
  const procedures = new Map(inlined.program.procedures);
  procedures.set(fn, cut.proc);
  const preparedProgram: Program = { ...inlined.program, procedures };
  // Globals start at their static initial values when the analysed function is the program's entry;
  // any other function may be called in any global state.
  const precondition = fn === program.entry
    ? F.and(...program.globals.map((g) => F.eqZero(L.sub(L.variable(g.name), L.constant(g.init)))))
    : F.TRUE;
  const unknownCutpoints = cut.cutpoints.filter((c) => c !== cut.proc.entry && c !== cut.proc.exit);
  const isUnknown = new Set(unknownCutpoints);
  const paths = enumeratePaths(cut.proc, cut.cutpoints, maxPaths);
  const vcs = paths.flatMap((p) => pathConditions(p, (c) => isUnknown.has(c)));
  const live = liveVariables(preparedProgram, cut.proc, { strong: program.fromHornClauses === true });
  const variables = new Map<number, string[]>();
  for (const c of unknownCutpoints) variables.set(c, [...(live.get(c) ?? new Set<string>())].sort());
  return { program, function: fn, cut, preparedProgram, precondition, vcs, unknownCutpoints, variables };
}

/** Bits a signed template constant needs to express every constant of the procedure (plus one step
 * beyond it, for strict comparisons): `for (i = 0; i < 1000000; i++)` needs `i <= 1000000`. */
export function constantBitsNeeded(prepared: PreparedAnalysis): number {
  const formulas: Formula[] = [prepared.precondition];
  const constants: bigint[] = [];
  for (const e of prepared.cut.proc.edges) {
    const st = e.stmt;
    if (st.kind === 'assign') constants.push(st.expr.constant);
    else if ((st.kind === 'assume' && !st.premise) || st.kind === 'assert') formulas.push(st.cond);
  }
  return constantBitsFor(formulas, constants);
}

/** Bits a signed template constant needs for every constant of `formulas`' atoms and `constants`. */
export function constantBitsFor(formulas: Iterable<Formula>, constants: Iterable<bigint> = []): number {
  let max = 0n;
  const see = (c: bigint): void => {
    const m = c < 0n ? -c : c;
    if (m > max) max = m;
  };
  const seeFormula = (f: Formula): void => {
    if (f.kind === 'atom') see(f.expr.constant);
    else if (f.kind === 'not') seeFormula(f.arg);
    else if (f.kind === 'and' || f.kind === 'or') f.args.forEach(seeFormula);
  };
  for (const c of constants) see(c);
  for (const f of formulas) seeFormula(f);
  return (max + 1n).toString(2).length + 1;
}

/** A template per unknown cut-point, over its variables except those `leftOut` there. */
export function templatesFor(prepared: PreparedAnalysis, shape: TemplateShape, leftOut?: ReadonlyMap<number, ReadonlySet<string>>): Map<number, Template> {
  return new Map(prepared.unknownCutpoints.map((c) => {
    const omitted = leftOut?.get(c);
    const variables = prepared.variables.get(c) ?? [];
    return [c, makeTemplate(c, omitted ? variables.filter((v) => !omitted.has(v)) : variables, shape)];
  }));
}
