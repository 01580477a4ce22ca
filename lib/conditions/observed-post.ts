// A postcondition proposed by the reached states, before any solver search (sp tries it first; the
// dual of observed.ts). Candidates at the target are the tightest bounds of the reached states in unit
// directions plus their affine hull (x == 2*m + 2, y == -1 at Fig. 2's exit); candidates at the other
// cut-points come from the states the same runs passed through. Houdini keeps the subset the checker
// proves: a refuted exit obligation (or, at a loop, a refuted inductiveness obligation) drops what its
// state violates. Every kept bound is attained by a reached state, so each is tight. Nothing here is
// trusted: sp certifies the answer again and collects the neighbour evidence.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import { runProgram } from '../interpreter/index.js';
import { OBSERVED_POST_MINIMISE_WORK, OBSERVED_POST_WORK, POST_EXPLORED_RUNS, POST_TRACED_RUNS, SAMPLED_RUN_STEPS, WorkBudget, type Deadline } from '../limits.js';
import { candidateConjuncts, inductiveSubset, minimalConjuncts, unitTermsFor } from '../observe/houdini.js';
import { affineHull } from '../observe/equalities.js';
import { hullFacets } from '../observe/facets.js';
import { stateKey, statesAlong, type State } from '../observe/samples.js';
import { exploreRuns } from '../observe/explore.js';
import type { RunResult } from '../interpreter/types.js';
import type { PreparedAnalysis } from '../problem/prepare.js';
import type { ReachedState } from './points.js';

export interface ObservedPostcondition {
  /** Conjuncts of the postcondition, minimised (none implied by the others). */
  readonly atoms: readonly Formula[];
  /** Invariants at the cut-points (the target's own is the postcondition when it is a loop). */
  readonly invariants: ReadonlyMap<number, Formula>;
}

/** Most variables at a cut-point for hull-facet candidates (their count grows with the triples). */
const MAX_FACET_VARIABLES = 4;


export async function observedPostcondition(
  prepared: PreparedAnalysis,
  target: number,
  variables: readonly string[],
  reached: readonly ReachedState[],
  deadline: Deadline,
): Promise<ObservedPostcondition | null> {
  const fn = prepared.function;
  const watched = new Set(prepared.unknownCutpoints);
  // Distinct states per cut-point, in the order first seen.
  const along = new Map<number, Map<string, State>>();
  const targetStates = new Map(reached.map((r) => [stateKey(r.state), r.state] as const));
  const record = (run: RunResult): void => {
    for (const [c, states] of statesAlong(prepared.preparedProgram, fn, run, watched)) {
      const seen = along.get(c) ?? new Map<string, State>();
      along.set(c, seen);
      for (const state of states) seen.set(stateKey(state), state);
    }
  };
  for (const r of reached.slice(0, POST_TRACED_RUNS)) {
    record(runProgram(prepared.preparedProgram, { entry: fn, inputs: r.inputs, nondet: r.nondet, nondetDefault: 0n, maxSteps: SAMPLED_RUN_STEPS, recordTrace: true }));
  }
  // And every run of a breadth-first exploration, not only those of the reached states kept above:
  // the hull's facets need the extreme states, which lie deep (the speedometer's d == 5*t after whole
  // seconds of increments).
  const atTarget = new Set([target]);
  for (const run of exploreRuns(prepared.preparedProgram, fn, { maxRuns: POST_EXPLORED_RUNS })) {
    record(run);
    for (const full of statesAlong(prepared.preparedProgram, fn, run, atTarget).get(target) ?? []) {
      const state: State = new Map(variables.map((v) => [v, full.get(v) ?? 0n] as [string, bigint]));
      targetStates.set(stateKey(state), state);
    }
  }
  // Hull facets (any coefficients, two and three variables at a time) where the variables are few.
  const candidatesAt = (vars: readonly string[], states: readonly State[]): Formula[] => [
    ...candidateConjuncts(vars, states, affineHull(vars, states), { maxTerms: unitTermsFor(vars.length) }),
    ...(vars.length <= MAX_FACET_VARIABLES ? hullFacets(vars, states) : []),
  ];
  const candidates = new Map(prepared.unknownCutpoints.map((c) => [c, candidatesAt(prepared.variables.get(c) ?? [], [...(along.get(c)?.values() ?? [])])] as const));
  const atExit = target === prepared.cut.proc.exit;
  const result = await inductiveSubset(prepared, candidates, {
    work: OBSERVED_POST_WORK,
    deadline,
    ...(atExit ? { postcondition: candidatesAt(variables, [...targetStates.values()]) } : {}),
  });
  if (!result.provesSafety) return null;
  const kept = atExit ? result.post : (result.kept.get(target) ?? []);
  if (kept.length === 0) return null;
  // Minimised with work of its own: unminimised answers are correct but unreadable.
  const minimising = new WorkBudget(OBSERVED_POST_MINIMISE_WORK);
  const atoms = await minimalConjuncts(kept, minimising);
  const invariants = new Map<number, Formula>();
  for (const c of prepared.unknownCutpoints) invariants.set(c, F.and(...(await minimalConjuncts(result.kept.get(c) ?? [], minimising))));
  return { atoms, invariants };
}
