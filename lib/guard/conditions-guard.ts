// The claim guard for the condition searches (issue 19): `wp`, `sp`, `cex` and `nonterm` certify their
// answers on prepared (inlined, path-expanded, instrumented) programs; here each answer is held to
// runs of the program the caller gave. A run that breaks one throws ClaimContradicted.
//   precondition P (wp):           no run from an input satisfying P fails an assertion;
//   a neighbour's witness (wp):    the run from its input fails an assertion;
//   postcondition Q (sp):          every visit of the target location satisfies Q;
//   failing condition C (cex):     every run from an input satisfying C fails an assertion, and the
//                                  condition's own replayed input does;
//   recurrent set R (nonterm):     no run from an input satisfying R returns.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import { locationPos, type Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import type { RunOutcomeKind } from '../interpreter/types.js';
import { ClaimContradicted } from './claim.js';
import { firstContradiction, measured, nondetRead, runText, type GuardInput, type GuardRunOptions } from './runs.js';
import { invariantsAtOriginal, type PreparedLocations } from './verify-guard.js';
import { REPLAY_RUN_STEPS } from '../limits.js';

/** Only certified answers are claims; the others are reported as guesses. */
/** A condition as the guard reads it (a ConditionClaim of the condition searches is one): certified
 * or not, its formula over the parameters, and the neighbours refuted by replayed inputs. */
export interface ConditionClaim {
  readonly certified: boolean;
  readonly formula: Formula;
  readonly expression: string;
  readonly neighbours: readonly { readonly expression: string; readonly replayed: boolean; readonly input?: ReadonlyMap<string, bigint>; readonly nondet?: readonly bigint[] }[];
}
const claimed = (answers: readonly ConditionClaim[]): ConditionClaim[] => answers.filter((a) => a.certified);

/** A condition over anything but the parameters (nondet_K inputs, ghosts) cannot be tried on inputs. */
function overParameters(program: Program, fn: string, f: Formula): boolean {
  const params = new Set(program.procedures.get(fn)!.params);
  return [...F.variablesOf(f)].every((v) => params.has(v));
}

/** Preconditions of `wp`, and the witnesses its neighbours were refuted by. */
export function guardPreconditions(program: Program, fn: string, answers: readonly ConditionClaim[], options: GuardRunOptions = {}): void {
  measured(() => {
    for (const answer of claimed(answers)) {
      for (const n of answer.neighbours) {
        if (!n.replayed || !n.input) continue;
        const run = runProgram(program, { entry: fn, inputs: n.input, nondet: [...(n.nondet ?? [])], nondetDefault: 0n, maxSteps: options.maxStepsPerRun ?? REPLAY_RUN_STEPS });
        if (run.outcome.kind === 'assertion-failed' || run.outcome.kind === 'step-limit') continue;
        throw new ClaimContradicted('witness', runText(n.input, n.nondet ?? []), `the run said to fail an assertion inside the neighbour ${n.expression} ends with ${run.outcome.kind}`);
      }
      if (!overParameters(program, fn, answer.formula)) continue;
      const found = firstContradiction(program, fn, { ...options, within: answer.formula }, (run) =>
        run.outcome.kind === 'assertion-failed'
          ? new ClaimContradicted('precondition', runText(run.inputs, nondetRead(run)), `under ${answer.expression} the assertion at line ${run.outcome.pos.line} fails`, run.outcome.pos.line)
          : null);
      if (found) throw found;
    }
  });
}

/**
 * The postcondition of `sp` at `target` of the prepared procedure: each visit of the location it
 * copies must satisfy it, when that location has no other copy (a copy is reached by some paths only).
 * Runs that fail an assertion count up to the failure: sp assumes the assertions.
 */
export function guardPostcondition(program: Program, fn: string, prepared: PreparedLocations, target: number, answer: ConditionClaim, options: GuardRunOptions = {}): void {
  measured(() => {
    if (!answer.certified) return;
    const atOriginal = invariantsAtOriginal(program, fn, prepared, new Map([[target, answer.formula]]));
    if (atOriginal.size === 0) return;
    const [location, formula] = [...atOriginal][0]!;
    const proc = program.procedures.get(fn)!;
    const line = locationPos(proc, location).line;
    const found = firstContradiction(program, fn, { ...options, watch: new Set([location]) }, (run) => {
      const state = (run.watched?.get(location) ?? []).find((s) => !F.evaluate(formula, (v) => s.get(v) ?? 0n));
      if (!state) return null;
      const values = [...F.variablesOf(formula)].sort().map((v) => `${v} = ${state.get(v) ?? 0n}`).join(', ');
      return new ClaimContradicted('postcondition', runText(run.inputs, nondetRead(run)), `line ${line}: ${values} violates ${answer.expression}`, line);
    });
    if (found) throw found;
  });
}

/** A failing condition of `cex`, with the input it was replayed on. */
export interface FailingConditionClaim {
  readonly answer: ConditionClaim;
  readonly input: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
}

export function guardFailingConditions(program: Program, fn: string, conditions: readonly FailingConditionClaim[], options: GuardRunOptions = {}): void {
  measured(() => {
    const params = program.procedures.get(fn)!.params;
    for (const c of conditions) {
      const own: GuardInput = { input: new Map([...c.input].filter(([k]) => params.includes(k))), nondet: c.nondet, foldIntoRange: false };
      const replay = runProgram(program, { entry: fn, inputs: own.input, nondet: [...own.nondet], nondetDefault: 0n, maxSteps: options.maxStepsPerRun ?? REPLAY_RUN_STEPS });
      if (replay.outcome.kind !== 'assertion-failed' && replay.outcome.kind !== 'step-limit') {
        throw new ClaimContradicted('counterexample', runText(own.input, own.nondet), `the run said to fail an assertion under ${c.answer.expression} ends with ${replay.outcome.kind}`);
      }
      if (!c.answer.certified || !overParameters(program, fn, c.answer.formula)) continue;
      const found = firstContradiction(program, fn, { ...options, within: c.answer.formula }, (run) =>
        run.outcome.kind === 'exit'
          ? new ClaimContradicted('failing condition', runText(run.inputs, nondetRead(run)), `under ${c.answer.expression} the run returns without failing an assertion`)
          : null);
      if (found) throw found;
    }
  });
}

/** Recurrent sets of `nonterm`: no run from inside one returns (or, with `runEnds`, ends otherwise:
 * under the termination property a blocked run ends too). */
export function guardRecurrentSets(program: Program, fn: string, answers: readonly ConditionClaim[], options: GuardRunOptions & { readonly runEnds?: (kind: RunOutcomeKind) => boolean } = {}): void {
  const ends = options.runEnds ?? ((kind: RunOutcomeKind) => kind === 'exit');
  measured(() => {
    for (const answer of claimed(answers)) {
      if (!overParameters(program, fn, answer.formula)) continue;
      const found = firstContradiction(program, fn, { ...options, within: answer.formula }, (run) =>
        ends(run.outcome.kind)
          ? new ClaimContradicted('non-termination condition', runText(run.inputs, nondetRead(run)), `under ${answer.expression} the run ends (${run.outcome.kind}) after ${run.steps} steps`)
          : null);
      if (found) throw found;
    }
  });
}
