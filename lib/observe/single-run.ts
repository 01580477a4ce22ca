// A function that reads no input has one run. When that run returns within its step budget and meets
// each cut-point in few distinct states, those states are the exact reachable set: the disjunction of
// their equalities (over the variables live at the cut-point) is an inductive invariant, and it
// proves every assertion the run passed. It is only a candidate here: the checker proves it like any
// other, so a wrong reading of the program cannot make it "safe". (Loops that run a fixed small number
// of times, like `while (x < 6) { x++; y *= 2; }`, need such a disjunction; no octagon states it.)
import type { Formula } from '../ir/formula.js';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { runProgram } from '../interpreter/index.js';
import type { PreparedAnalysis } from '../problem/prepare.js';
import { SINGLE_RUN_STATES, SINGLE_RUN_STEPS } from '../limits.js';
import { statesAlong } from './samples.js';

/** The single run's states as invariants at every unknown cut-point, or null when the function reads
 * an input, its run does not return within SINGLE_RUN_STEPS, or a cut-point sees more than
 * SINGLE_RUN_STATES distinct states. */
export function singleRunInvariants(prepared: PreparedAnalysis, isEntry: boolean): Map<number, Formula> | null {
  const program = prepared.preparedProgram;
  const proc = program.procedures.get(prepared.function)!;
  // Inputs: parameters, nondet reads, and globals unless they start at their initial values (the
  // function is the entry). A ghost (a quotient, a wrap-around count) is computed from the state.
  if (proc.params.length > 0 || proc.edges.some((e) => e.stmt.kind === 'havoc' && !e.stmt.ghost)) return null;
  if (!isEntry && program.globals.length > 0) return null;
  const run = runProgram(program, { entry: prepared.function, inputs: new Map(), nondet: [], nondetDefault: 0n, maxSteps: SINGLE_RUN_STEPS, recordTrace: true });
  if (run.outcome.kind !== 'exit') return null;
  const watched = new Set(prepared.unknownCutpoints);
  const seen = statesAlong(program, prepared.function, run, watched);
  const invariants = new Map<number, Formula>();
  for (const c of prepared.unknownCutpoints) {
    const variables = prepared.variables.get(c) ?? [];
    const cubes = new Map<string, Formula>();
    for (const state of seen.get(c) ?? []) {
      const cube = F.and(...variables.map((v) => F.eqZero(L.sub(L.variable(v), L.constant(state.get(v) ?? 0n)))));
      cubes.set(F.toC(cube), cube);
      if (cubes.size > SINGLE_RUN_STATES) return null;
    }
    invariants.set(c, cubes.size === 0 ? F.FALSE : F.or(...cubes.values()));
  }
  return invariants;
}
