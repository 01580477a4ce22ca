// The premise of reachability checked on concrete runs: signed overflow is undefined behaviour in C
// and the analyses assume it away, so whichever engine answers, a few runs of the original program
// (random values near zero and the C types' boundary values) look for one that overflows, and the
// answer names its line. A fixed number of runs with a fixed seed: the same note on any machine.
import type { Program } from '../ir/cfg.js';
import { runProgram } from '../interpreter/index.js';
import { mulberry32 } from '../random.js';
import { boundaryStream, nondetStream } from './samples.js';
import type { OverflowReport } from '../result.js';
import { SAMPLED_RUN_STEPS } from '../limits.js';

const RANDOM_RUNS = 24;
const BOUNDARY_RUNS = 12;

export function probeOverflow(program: Program, fn: string): OverflowReport | null {
  if (program.property === 'no-overflow') return null; // there overflow is the property, not a premise
  const next = mulberry32(20260101);
  const streams = [
    ...Array.from({ length: RANDOM_RUNS }, () => nondetStream(next, 64)),
    ...Array.from({ length: BOUNDARY_RUNS }, (_, run) => boundaryStream(run, 64)),
  ];
  for (const nondet of streams) {
    const run = runProgram(program, { entry: fn, nondet, nondetDefault: 0n, maxSteps: SAMPLED_RUN_STEPS, preferPinned: true, foldIntoRange: true });
    if (run.outcome.kind === 'overflow') {
      return { line: run.outcome.pos.line, inputs: run.inputs, nondet: run.nondetConsumed.slice(run.inputsFromNondet.length) };
    }
  }
  return null;
}

/** The result with the overflow note, when it has none yet and a probe run overflows. */
export function withOverflowNote<R extends { readonly overflow?: OverflowReport; readonly function: string }>(program: Program, result: R): R {
  if (result.overflow || !program.procedures.has(result.function)) return result;
  const overflow = probeOverflow(program, result.function);
  return overflow ? { ...result, overflow } : result;
}
