// Front half of the constraint pipeline, shared by `verify` and `constraints`: pick the procedure,
// inline non-recursive calls, choose the cut-set, enumerate paths and build verification conditions.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Program } from '../ir/cfg.js';
import { InputError } from '../diagnostics.js';
import { inlineCalls } from '../ir/inline.js';
import { liveVariables } from '../ir/liveness.js';
import { prepareCutset, type CutsetStrategy, type PreparedCutset } from '../vc/cutset.js';
import { enumeratePaths } from '../vc/paths.js';
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

export function resolveFunction(program: Program, name: string | undefined): string {
  const fn = name ?? program.entry;
  if (!program.procedures.has(fn)) {
    throw new InputError('error', `no function named '${fn}' (defined: ${[...program.procedures.keys()].join(', ')})`, null);
  }
  return fn;
}

export function prepareAnalysis(program: Program, functionName: string | undefined, strategy: CutsetStrategy): PreparedAnalysis {
  const fn = resolveFunction(program, functionName);
  const inlined = inlineCalls(program, fn);
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
  const paths = enumeratePaths(cut.proc, cut.cutpoints);
  const vcs = paths.flatMap((p) => pathConditions(p, (c) => isUnknown.has(c)));
  const live = liveVariables(preparedProgram, cut.proc);
  const variables = new Map<number, string[]>();
  for (const c of unknownCutpoints) variables.set(c, [...(live.get(c) ?? new Set<string>())].sort());
  return { program, function: fn, cut, preparedProgram, precondition, vcs, unknownCutpoints, variables };
}

/** Bits a signed template constant needs to express every constant of the procedure (plus one step
 * beyond it, for strict comparisons): `for (i = 0; i < 1000000; i++)` needs `i <= 1000000`. */
export function constantBitsNeeded(prepared: PreparedAnalysis): number {
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
  for (const e of prepared.cut.proc.edges) {
    const st = e.stmt;
    if (st.kind === 'assign') see(st.expr.constant);
    else if ((st.kind === 'assume' && !st.premise) || st.kind === 'assert') seeFormula(st.cond);
  }
  seeFormula(prepared.precondition);
  return (max + 1n).toString(2).length + 1;
}

export function templatesFor(prepared: PreparedAnalysis, shape: TemplateShape): Map<number, Template> {
  return new Map(prepared.unknownCutpoints.map((c) => [c, makeTemplate(c, prepared.variables.get(c) ?? [], shape)]));
}
