// A counterexample is reported only when a run of the original program reproduces it: the failing
// run was found on the prepared program (inlined, path-expanded), built by code that can err.
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import type { RunResult } from '../interpreter/types.js';
import type { Counterexample } from '../problem/result.js';

/** Replays a failing run on the original program (not the inlined, path-expanded one); the
 * counterexample is reported only if the replay fails an assertion too. */
export function replayed(program: Program, fn: string, failing: RunResult): Counterexample | null {
  const replay = runProgram(program, {
    entry: fn,
    inputs: failing.inputs,
    nondet: failing.nondetConsumed.slice(failing.inputsFromNondet.length),
    nondetDefault: null,
    maxSteps: failing.steps + 1000,
  });
  if (replay.outcome.kind !== 'assertion-failed') return null;
  return { inputs: replay.inputs, nondet: replay.nondetConsumed.slice(replay.inputsFromNondet.length), line: replay.outcome.pos.line, replayed: true };
}
