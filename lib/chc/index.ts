// The Horn-clause front end: SMT-LIB HORN text → the IR program every engine reads (lower.ts), and a
// verify result on it → the CHC answer, each side with its certificate checked on the clauses as
// written: sat with a model z3 validated on every clause, unsat with a derivation that evaluation
// confirms. Anything short of that is unknown, with the reason.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import type { Program } from '../ir/cfg.js';
import type { VerifyResult } from '../problem/result.js';
import { DEFAULT_MAX_STEPS } from '../interpreter/index.js';
import { CHC_LINEAR_UNFOLD_WORK, Deadline } from '../limits.js';
import { unsupported } from '../diagnostics.js';
import { loadSchedule } from '../constraints/schedule.js';
import { createBackend, DEFAULT_BACKEND_SPEC } from '../sat/index.js';
import type { ProgressEvent } from '../problem/result.js';
import { solveOnClauses, type ClauseSolverOutcome } from './clause-solver.js';
import { parseChc } from './parse.js';
import { lowerChc, type ChcProgram } from './lower.js';
import { checkModel, Interpretations, modelText, ModelTooLarge, type ChcModel } from './model.js';
import { loopHeaders } from '../vc/cutset.js';
import { checkDerivation, derivationOf, formatDerivation, type Derivation } from './derivation.js';

export { looksLikeChc } from './parse.js';
export type { ChcProgram } from './lower.js';
export type { Derivation } from './derivation.js';
export { derivationJson } from './derivation.js';

const lowered = new WeakMap<Program, ChcProgram>();

/** Reads Horn clauses; the program it returns is recognised by `chcOf`. A nonlinear system (see
 * lower.ts) is an input error unless the caller solves it with `solveHornClauses`: its program has
 * no clause edges, and an engine on control-flow graphs would find nothing to refute in it. */
export function readChc(text: string, file: string, options: { readonly nonlinear?: boolean } = {}): ChcProgram {
  const chc = lowerChc(parseChc(text, file));
  if (chc.nonlinear && !options.nonlinear) {
    const first = chc.system.clauses.find((c) => c.body.length > 1)!;
    throw unsupported(`a clause with ${first.body.length} predicate applications in its body: nonlinear clauses are solved by 'farkas verify' only`, first.pos);
  }
  lowered.set(chc.program, chc);
  return chc;
}

export interface HornClauseOptions {
  /** The user's --timeout. */
  readonly timeoutMs?: number;
  /** The SAT back end's spec (lib/sat/index.ts) and the template schedule's name or file. */
  readonly backend?: string;
  readonly schedule?: string;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Linear systems: the unfolding (CHC_LINEAR_UNFOLD_WORK) and Houdini on the clauses only; the
   * template search runs on the control-flow graph. */
  readonly quick?: boolean;
}

/** Horn clauses solved on the clauses themselves (clause-solver.ts): all of a nonlinear system, the quick
 * part of a linear one; the answer is checked as the graph engines' is. */
export function solveHornClauses(chc: ChcProgram, options: HornClauseOptions = {}): Promise<ClauseSolverOutcome> {
  return solveOnClauses(chc, {
    deadline: new Deadline(options.timeoutMs),
    backend: createBackend(options.backend ?? DEFAULT_BACKEND_SPEC),
    schedule: loadSchedule(options.schedule),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.quick ? { templateSearch: false, unfoldWork: CHC_LINEAR_UNFOLD_WORK } : {}),
  });
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
  if (result.verdict === 'safe') {
    const cut = cutPredicates(chc);
    const interpretations = new Interpretations(chc, modelOf(chc, result), cut);
    try {
      const check = await checkModel(chc, interpretations, deadline);
      if (!check.ok) return { verdict: 'unknown', reason: `the model did not pass z3's check of clause ${check.clause + 1} (line ${chc.system.clauses[check.clause]!.pos.line}): ${check.reason}` };
      return { verdict: 'sat', model: modelText(chc, interpretations, cut) };
    } catch (error) {
      if (error instanceof ModelTooLarge) return { verdict: 'unknown', reason: error.message };
      throw error;
    }
  }
  if (result.verdict === 'unsafe' && result.counterexample) {
    const derivation = derivationOf(chc, result.counterexample, Math.max(DEFAULT_MAX_STEPS, (result.counterexample.steps ?? 0) + 1));
    if (!derivation) return { verdict: 'unknown', reason: 'the counterexample does not replay to a query' };
    const check = checkDerivation(chc.system.clauses, derivation);
    if (!check.ok) return { verdict: 'unknown', reason: `the derivation did not pass evaluation: ${check.reason}` };
    return { verdict: 'unsat', derivation, derivationText: formatDerivation(chc.system.clauses, derivation) };
  }
  return { verdict: 'unknown', reason: result.reason ?? 'no answer' };
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
