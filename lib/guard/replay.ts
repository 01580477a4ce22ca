// A counterexample is reported only when a run of the original program reproduces it: the failing
// run was found on the prepared program (inlined, path-expanded), built by code that can err.
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import type { RunResult } from '../interpreter/types.js';
import type { Counterexample } from '../result.js';
import { REPLAY_SLACK_STEPS, REPLAY_WORK, type Deadline } from '../limits.js';

/** Runs a run's inputs and nondet values again on the original program (not the inlined,
 * path-expanded one): what a reported failure must reproduce. Past the `deadline` (the user's
 * --timeout) the replay stops, without a failure: no answer. */
export function replayOnOriginal(program: Program, fn: string, run: RunResult, deadline?: Deadline): RunResult {
  return runProgram(program, {
    entry: fn,
    inputs: run.inputs,
    nondet: run.nondetConsumed.slice(run.inputsFromNondet.length),
    nondetDefault: null,
    maxSteps: run.steps + Math.max(REPLAY_SLACK_STEPS, run.steps),
    // The same run, its repeating loops in closed form: a failure after billions of steps replays.
    accelerate: true,
    maxWork: REPLAY_WORK,
    // A replay whose loops do not run in closed form (calls in the loop body) can take its whole
    // REPLAY_WORK: seconds.
    ...(deadline ? { interrupted: () => deadline.passed || deadline.aborted } : {}),
  });
}

/** The nondet values a replay read after its inputs (those given as nondet reads). */
export function replayNondet(replay: RunResult): bigint[] {
  return replay.nondetConsumed.slice(replay.inputsFromNondet.length);
}

/** Replays a failing run on the original program; the counterexample is reported only if the
 * replay fails an assertion too. */
export function replayed(program: Program, fn: string, failing: RunResult, deadline?: Deadline): Counterexample | null {
  const replay = replayOnOriginal(program, fn, failing, deadline);
  if (replay.outcome.kind !== 'assertion-failed') return null;
  return { inputs: replay.inputs, nondet: replayNondet(replay), line: replay.outcome.pos.line, replayed: true, steps: replay.steps };
}
