// The termination property (SV-COMP's `LTL(F end)`, `verify --property termination`): does every run
// of the function end? Two searches, each with its own certificate:
// - terminates: a certified bound on every loop and every recursion, for every input and every nondet
//   value (bounds, as `nonterm` proves termination), or for a loop without one a certified ranking
//   function (ranking.ts);
// - does not terminate: the nondet choices are fixed by parameters (one value per read site:
//   nondet-inputs.ts), blocking counts as ending (instrument.ts), and a weakest precondition of
//   `assert(false)` at the exit is a recurrent set — every run from an input inside it goes on for ever.
//   It is held to a run of the original program from an input inside it, fed the same nondet values,
//   that goes past the step budget without ending, and to the claim guard's runs.
// Otherwise the answer is unknown, with the reason.
import * as F from '../ir/formula.js';
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import { withBlockingAsFailure, withFalseAtExit } from '../conditions/instrument.js';
import { nondetFixedByParameters, nondetStreamOf, type NondetInput, type NondetParameters } from '../conditions/nondet-inputs.js';
import { candidateInputs } from '../conditions/points.js';
import { wp } from '../conditions/wp.js';
import type { ConditionOptions } from '../conditions/search.js';
import { withDeadline, type Settings } from '../settings.js';
import type { ConditionAnswer } from '../conditions/types.js';
import { Problem } from '../problem/prepare.js';
import type { LoopBound } from './bounds.js';
import type { RankedLoop } from './ranking.js';
import type { RankedProcedure } from './recursion-ranking.js';
import { sampledRunGoesOn, terminationProofs, type TerminationProof } from './termination-proof.js';
import { guardRecurrentSets } from '../guard/conditions-guard.js';
import { type Deadline, NONTERM_SHOWN_INPUTS, NONTERM_SHOWN_RUN_STEPS, TERMINATION_PROOF_MIN_MS } from '../limits.js';
import type { TerminationStatus } from '../result.js';

export interface EndlessRun {
  /** The certified condition over the parameters and the fixed nondet values (`nondet_K`). */
  readonly condition: ConditionAnswer;
  /** An input inside it: the function's parameters… */
  readonly input: ReadonlyMap<string, bigint>;
  /** …and the nondet stream the original program read along the run shown. */
  readonly nondet: readonly bigint[];
  /** Steps the original program took on it without ending. */
  readonly steps: number;
}

export interface TerminationResult {
  readonly function: string;
  readonly verdict: TerminationStatus;
  /** terminates: the certified bound of each loop that has one (recursions are bounded too)… */
  readonly bounds?: readonly LoopBound[];
  /** …and a certified ranking function for each other loop (callees' loops included)… */
  readonly ranked?: readonly RankedLoop[];
  /** …and for each recursion the bounds search did not bound, one per procedure of it. */
  readonly rankedRecursion?: readonly RankedProcedure[];
  /** non-terminating: the recurrent condition and a run of the original program inside it. */
  readonly endless?: EndlessRun;
  /** The nondet reads the answer's conditions and bounds name as parameters (`nondet_K`), in source
   * order: those outside loops for the bounds, every one (fixed to one value per read) for a recurrent set. */
  readonly nondetInputs: readonly NondetInput[];
  readonly reason?: string;
  readonly millis: number;
}

export async function termination(problem: Problem, settings: Settings, options: ConditionOptions = {}): Promise<TerminationResult> {
  const { program, function: fn } = problem;
  const { deadline } = settings;
  const started = Date.now();
  const done = (r: Found): TerminationResult => ({ function: fn, ...r, millis: Date.now() - started });
  const fixed = nondetFixedByParameters(program, fn);
  const overParameters = fixed.program.procedures.get(fn)!.params.length > 0;
  // Most programs end: the bounds search goes first with half the time, then ranking functions for
  // the loops it left. A sampled run that goes on past the step budget either runs long (no bound can
  // be fitted to it, but a ranking function may exist) or for ever: then ranking functions alone get
  // 40% of the time, the recurrent set most of the rest, and the bounds alone what is left (a loop
  // whose sampled runs go on may still be bounded). With recursion, ranking functions go first (a
  // bound on a recursion is rarely found, and a ranking function is cheap to check), then the bounds,
  // then the recurrent set. The order only saves time.
  const runsGoOn = sampledRunGoesOn(fixed.program, fn);
  const proofs = terminationProofs(program, fn, settings, options);
  const proved = (search: (within: Deadline) => Promise<TerminationProof | string>) => async (within: Deadline): Promise<Found | string> => {
    const found = await search(within);
    return typeof found === 'string' ? found : { verdict: 'terminates', ...found };
  };
  const searches: [(within: Deadline) => Promise<Found | string>, number][] = runsGoOn
    ? [[proved(proofs.rankedFirst), 0.4], [recurrentSet, 0.7], [proved((within) => proofs.bounded(within, false)), 1]]
    : Problem.of(program, fn).needsSummaries
      ? [[proved(proofs.rankedFirst), 0.3], [proved(proofs.bounded), 0.5], [recurrentSet, 1]]
      : [[proved(proofs.bounded), 0.5], [recurrentSet, 1], [boundsAgain, 1]];
  const reasons: string[] = [];
  for (const [k, [search, share]] of searches.entries()) {
    if (k > 0 && deadline.left < TERMINATION_PROOF_MIN_MS) {
      if (search !== boundsAgain || proofs.boundsTimedOut()) reasons.push(deadline.timeoutReason('no time left for the other search'));
      break;
    }
    const found = await search(deadline.part(share));
    if (typeof found !== 'string') return done(found);
    if (found !== '') reasons.push(found);
  }
  return done({ verdict: 'unknown', reason: [...new Set(reasons)].join('; '), nondetInputs: [] }); // two searches may stop for one reason

  // On a busy machine the bounds search may stop at the end of its share: with time left after the
  // recurrent set, it runs again with all of it.
  async function boundsAgain(within: Deadline): Promise<Found | string> {
    if (!proofs.boundsTimedOut()) return ''; // nothing to resume: no reason to add
    return proved((w) => proofs.bounded(w, false))(within);
  }

  async function recurrentSet(within: Deadline): Promise<Found | string> {
    if (!overParameters) return 'no recurrent set: the function has no input or nondet read to state one over';
    const instrumented = withFalseAtExit(withBlockingAsFailure(fixed.program), fn);
    const result = await wp(Problem.of(instrumented, fn), withDeadline(settings, within), options);
    for (const answer of result.preconditions) {
      if (!answer.certified) continue;
      const shown = endlessRun(program, fixed, fn, answer.formula);
      if (!shown) continue;
      // Certified on the instrumented program: held to runs of the program with the nondet values
      // fixed (each one a run of the original), which must neither return nor block.
      guardRecurrentSets(fixed.program, fn, [answer], { runEnds: (kind) => kind !== 'step-limit' });
      return { verdict: 'non-terminating', endless: { condition: answer, ...shown }, nondetInputs: fixed.inputs };
    }
    return result.preconditions.length > 0
      ? 'no recurrent condition found has an input whose run goes on'
      : `no recurrent set found${result.reason ? ` (${result.reason})` : ''}`;
  }
}

type Found = Omit<TerminationResult, 'function' | 'millis'>;

/**
 * An input inside `condition` on which the original program runs past the step budget: the program
 * with the nondet values fixed is run first (recording the values it reads), then the original is fed
 * the same values (the two programs take the same steps; twice the budget only makes sure of it).
 */
function endlessRun(program: Program, fixed: NondetParameters, fn: string, condition: F.Formula): Omit<EndlessRun, 'condition'> | null {
  const params = fixed.program.procedures.get(fn)!.params;
  const own = new Set(program.procedures.get(fn)!.params);
  for (const input of candidateInputs(params).slice(0, NONTERM_SHOWN_INPUTS)) {
    if (!F.evaluate(condition, (v) => input.get(v) ?? 0n)) continue;
    const run = runProgram(fixed.program, { entry: fn, inputs: input, nondet: [], nondetDefault: 0n, maxSteps: 2 * NONTERM_SHOWN_RUN_STEPS, recordTrace: true });
    if (run.outcome.kind !== 'step-limit') continue;
    const nondet = nondetStreamOf(fixed, fn, run);
    const inputs = new Map([...input].filter(([k]) => own.has(k)));
    const original = runProgram(program, { entry: fn, inputs, nondet, nondetDefault: null, maxSteps: NONTERM_SHOWN_RUN_STEPS });
    if (original.outcome.kind !== 'step-limit') continue;
    return { input: inputs, nondet: original.nondetConsumed, steps: original.steps };
  }
  return null;
}
