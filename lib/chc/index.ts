// The Horn-clause front end: SMT-LIB HORN text → the IR program every engine reads (lower.ts), and a
// verify result on it → the CHC answer, each side with its certificate checked on the clauses as
// written: sat with a model z3 validated on every clause, unsat with a derivation that evaluation
// confirms. Anything short of that is unknown, with the reason.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import type { Program } from '../ir/cfg.js';
import type { VerifyResult } from '../result.js';
import { DEFAULT_MAX_STEPS } from '../interpreter/index.js';
import { CHC_LINEAR_UNFOLD_WORK, type Deadline } from '../limits.js';
import type { Settings } from '../settings.js';
import { unsupported } from '../diagnostics.js';
import type { ProgressEvent } from '../result.js';
import { solveOnClauses, type ClauseSolverOutcome } from './clause-solver.js';
import { parseChc } from './parse.js';
import { lowerChc, type ChcProgram } from './lower.js';
import { checkModel, Interpretations, modelText, ModelTooLarge, type ChcModel } from './model.js';
import { loopHeaders } from '../vc/cutset.js';
import { checkDerivation, derivationOf, formatDerivation, type Derivation } from './derivation.js';
import { eliminatePredicates, expandDerivation } from './eliminate.js';
import { residueName, residueOf } from './features.js';
import * as L from '../ir/linear.js';

export { looksLikeChc } from './parse.js';
export type { ChcProgram } from './lower.js';
export type { Derivation } from './derivation.js';
export { derivationJson } from './derivation.js';

const lowered = new WeakMap<Program, ChcProgram>();

/** Reads Horn clauses; the program it returns is recognised by `chcOf`. A nonlinear system (see
 * lower.ts) is an input error unless the caller solves it with `solveHornClauses`: its program has
 * no clause edges, and an engine on control-flow graphs would find nothing to refute in it. */
export function readChc(text: string, file: string, options: { readonly nonlinear?: boolean } = {}): ChcProgram {
  const system = parseChc(text, file);
  let chc = lowerChc(system);
  // verify's nonlinear systems: linear ones where resolving away their predicates outside cycles
  // makes them so (eliminate.ts); the answers are checked on the input.
  const reduction = chc.nonlinear && options.nonlinear ? eliminatePredicates(system) : null;
  if (reduction) chc = { ...lowerChc(reduction.system), reducedFrom: { input: chc, reduction } };
  if (chc.nonlinear && !options.nonlinear) {
    const first = chc.system.clauses.find((c) => c.body.length > 1)!;
    throw unsupported(`a clause with ${first.body.length} predicate applications in its body: nonlinear clauses are solved by 'farkas verify' only`, first.pos);
  }
  lowered.set(chc.program, chc);
  return chc;
}

export interface HornClauseOptions {
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Linear systems: the unfolding (CHC_LINEAR_UNFOLD_WORK) and Houdini on the clauses only; the
   * template search runs on the control-flow graph. */
  readonly quick?: boolean;
}

/** Horn clauses solved on the clauses themselves (clause-solver.ts): all of a nonlinear system, the quick
 * part of a linear one; the answer is checked as the graph engines' is. */
export async function solveHornClauses(chc: ChcProgram, settings: Settings, options: HornClauseOptions = {}): Promise<ClauseSolverOutcome> {
  const { deadline } = settings;
  const outcome = await solveOnClauses(chc, {
    deadline,
    backend: settings.backend,
    schedule: settings.schedule,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.quick ? { templateSearch: false, unfoldWork: CHC_LINEAR_UNFOLD_WORK } : {}),
  });
  if (!chc.reducedFrom || outcome.answer.verdict === 'unknown') return outcome;
  // The answer on the reduced system, checked again on the input.
  const answer = outcome.answer.verdict === 'sat'
    ? await certifiedModel(chc, outcome.invariants ?? new Map(), new Set(chc.predicates.keys()), deadline)
    : certifiedDerivation(chc, outcome.answer.derivation!);
  if (answer.verdict !== 'unknown') return { ...outcome, answer };
  return { answer, result: { ...outcome.result, verdict: 'unknown', certified: false, reason: answer.reason! } };
}

/** The clauses a program was lowered from, when it was. */
export function chcOf(program: Program): ChcProgram | undefined {
  return lowered.get(program);
}

export type ChcVerdict = 'sat' | 'unsat' | 'unknown';

export interface ChcAnswer {
  readonly verdict: ChcVerdict;
  readonly reason?: string;
  /** sat: one define-fun per predicate, validated by z3 on every clause. */
  readonly model?: string;
  /** unsat: the derivation of false, confirmed by evaluation. */
  readonly derivation?: Derivation;
  readonly derivationText?: string;
}

/** The CHC answer a verify result on `chc.program` stands for, once its certificate is checked. */
export async function chcAnswer(chc: ChcProgram, result: VerifyResult, deadline?: Deadline): Promise<ChcAnswer> {
  if (result.verdict === 'safe') return certifiedModel(chc, modelOf(chc, result), cutPredicates(chc), deadline);
  if (result.verdict === 'unsafe' && result.counterexample) {
    const derivation = derivationOf(chc, result.counterexample, Math.max(DEFAULT_MAX_STEPS, (result.counterexample.steps ?? 0) + 1));
    if (!derivation) return { verdict: 'unknown', reason: 'the counterexample does not replay to a query' };
    return certifiedDerivation(chc, derivation);
  }
  return { verdict: 'unknown', reason: result.reason ?? 'no answer' };
}

/** sat, when z3 validates on every clause of the input the invariants of the predicates in `cut`
 * and, for the others, the interpretations their clauses give (model.ts). The invariants of a
 * reduced system are read in the input's variables; its eliminated predicates are not in `cut`. */
async function certifiedModel(chc: ChcProgram, invariants: ChcModel, cut: ReadonlySet<string>, deadline?: Deadline): Promise<ChcAnswer> {
  const input = chc.reducedFrom?.input ?? chc;
  const model = chc.reducedFrom ? inInputVariables(chc, input, invariants) : invariants;
  const interpretations = new Interpretations(input, model, cut);
  try {
    const check = await checkModel(input, interpretations, deadline);
    if (!check.ok) return { verdict: 'unknown', reason: `the model did not pass z3's check of clause ${check.clause + 1} (line ${input.system.clauses[check.clause]!.pos.line}): ${check.reason}` };
    return { verdict: 'sat', model: modelText(input, interpretations, cut) };
  } catch (error) {
    if (error instanceof ModelTooLarge) return { verdict: 'unknown', reason: error.message };
    throw error;
  }
}

/** unsat, when evaluation confirms the derivation on the input's clauses (a reduced system's
 * derivation expanded into the input instances it stands for). */
function certifiedDerivation(chc: ChcProgram, derivation: Derivation): ChcAnswer {
  const input = chc.reducedFrom?.input ?? chc;
  const expanded = chc.reducedFrom ? expandDerivation(chc.reducedFrom.reduction, derivation) : derivation;
  const check = checkDerivation(input.system.clauses, expanded);
  if (!check.ok) return { verdict: 'unknown', reason: `the derivation did not pass evaluation: ${check.reason}` };
  return { verdict: 'unsat', derivation: expanded, derivationText: formatDerivation(input.system.clauses, expanded) };
}

/** A reduced system's invariants over the input's argument variables (the same predicates, the same
 * positions; residues `mod!k!x` follow their variable). */
function inInputVariables(chc: ChcProgram, input: ChcProgram, invariants: ChcModel): ChcModel {
  return new Map([...invariants].map(([p, f]) => {
    const rename = new Map(chc.predicates.get(p)!.vars.map((v, k) => [v, input.predicates.get(p)!.vars[k]!]));
    const name = (v: string): string => {
      const residue = residueOf(v);
      return residue ? residueName(name(residue.variable), residue.divisor) : rename.get(v) ?? v;
    };
    return [p, F.substitute(f, new Map([...F.variablesOf(f)].map((v) => [v, L.variable(name(v))])))];
  }));
}

/** The predicates that are cut-points: those every cycle of clauses passes through. */
export function cutPredicates(chc: ChcProgram): Set<string> {
  const headers = loopHeaders(chc.program.procedures.get(chc.program.entry)!);
  return new Set([...chc.predicates].filter(([, at]) => headers.has(at.location)).map(([name]) => name));
}

/** Each predicate's invariant at its location (true where the proof needed none). */
function modelOf(chc: ChcProgram, result: VerifyResult): ChcModel {
  const byLocation = new Map<number, Formula[]>();
  for (const inv of result.invariants) {
    const list = byLocation.get(inv.location) ?? [];
    list.push(inv.formula);
    byLocation.set(inv.location, list);
  }
  return new Map([...chc.predicates].map(([name, at]) => [name, F.and(...(byLocation.get(at.location) ?? []))]));
}
