// A postcondition proposed by the reached states, before any solver search (sp tries it first; the
// dual of observed.ts). Candidates at the target are the tightest bounds of the reached states in unit
// directions plus their affine hull (x == 2*m + 2, y == -1 at Fig. 2's exit); candidates at the other
// cut-points come from the states the same runs passed through. Houdini keeps the subset the checker
// proves: a refuted exit obligation (or, at a loop, a refuted inductiveness obligation) drops what its
// state violates. Every kept bound is attained by a reached state, so each is tight. Nothing here is
// trusted: sp certifies the answer again and collects the neighbour evidence.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import { runProgram } from '../interp/index.js';
import { candidateConjuncts, inductiveSubset, minimalConjuncts, unitTermsFor } from '../engine/houdini.js';
import { affineHull } from '../engine/equalities.js';
import { statesAlong, type State } from '../engine/samples.js';
import type { PreparedAnalysis } from '../engine/prepare.js';
import type { ReachedState } from './points.js';

export interface ObservedPostcondition {
  /** Conjuncts of the postcondition, minimised (none implied by the others). */
  readonly atoms: readonly Formula[];
  /** Invariants at the cut-points (the target's own is the postcondition when it is a loop). */
  readonly invariants: ReadonlyMap<number, Formula>;
}

/** Runs whose states along the way feed the cut-point candidates. */
const RUNS = 120;

export async function observedPostcondition(
  prepared: PreparedAnalysis,
  target: number,
  variables: readonly string[],
  reached: readonly ReachedState[],
  budgetMs: number,
): Promise<ObservedPostcondition | null> {
  const stopAt = Date.now() + budgetMs;
  const fn = prepared.function;
  const watched = new Set(prepared.unknownCutpoints);
  const along = new Map<number, State[]>();
  for (const r of reached.slice(0, RUNS)) {
    const run = runProgram(prepared.preparedProgram, { entry: fn, inputs: r.inputs, nondet: r.nondet, nondetDefault: 0n, maxSteps: 4000, recordTrace: true });
    for (const [c, states] of statesAlong(prepared.preparedProgram, fn, run, watched)) along.set(c, [...(along.get(c) ?? []), ...states]);
  }
  const candidatesAt = (vars: readonly string[], states: readonly State[]): Formula[] =>
    candidateConjuncts(vars, states, affineHull(vars, states), { maxTerms: unitTermsFor(vars.length) });
  const candidates = new Map(prepared.unknownCutpoints.map((c) => [c, candidatesAt(prepared.variables.get(c) ?? [], along.get(c) ?? [])] as const));
  const atExit = target === prepared.cut.proc.exit;
  const targetStates = reached.map((r) => r.state);
  const result = await inductiveSubset(prepared, candidates, {
    budgetMs: Math.max(0, stopAt - Date.now()),
    ...(atExit ? { postcondition: candidatesAt(variables, targetStates) } : {}),
  });
  if (!result.provesSafety) return null;
  const kept = atExit ? result.post : (result.kept.get(target) ?? []);
  if (kept.length === 0) return null;
  // Minimised with the time left (at least a little: unminimised answers are correct but unreadable).
  const until = Math.max(stopAt, Date.now() + 2000);
  const atoms = await minimalConjuncts(kept, until);
  const invariants = new Map<number, Formula>();
  for (const c of prepared.unknownCutpoints) invariants.set(c, F.and(...(await minimalConjuncts(result.kept.get(c) ?? [], until))));
  return { atoms, invariants };
}
