// Step-through view of a counterexample: the interpreter's recorded run, one row per step, each with
// the program state after it (the UI shows it; no analysis happens here).
import { type Program, runProgram, TRACE_RUN_STEPS } from '../../lib/index.js';

export interface TraceRow {
  readonly line: number;
  readonly procedure: string;
  readonly depth: number;
  readonly text: string;
  /** Variables this step changed. */
  readonly changed: readonly string[];
  /** Every variable set so far in this frame, after the step, as decimal text: rows are React props,
   * and React's development build cannot print a bigint in a pair when it logs changed props. */
  readonly state: ReadonlyArray<readonly [string, string]>;
}

/** Steps shown at most; longer runs keep their first and last steps. */
export const MAX_TRACE_ROWS = 2000;

export interface TraceInput {
  readonly entry: string;
  readonly inputs: ReadonlyMap<string, bigint>;
  readonly nondet: readonly bigint[];
}

function asText(values: ReadonlyMap<string, bigint>): [string, string][] {
  return [...values].map(([k, v]) => [k, v.toString()]);
}

/** Replays a counterexample with the interpreter, recording every step. */
export function recordTrace(program: Program, cex: TraceInput): TraceRow[] {
  const run = runProgram(program, { entry: cex.entry, inputs: cex.inputs, nondet: cex.nondet, nondetDefault: null, recordTrace: true, maxSteps: TRACE_RUN_STEPS });
  const frames: Map<string, bigint>[] = [new Map(cex.inputs)];
  const rows: TraceRow[] = [{ line: program.procedures.get(cex.entry)?.pos.line ?? 1, procedure: cex.entry, depth: 0, text: `call ${cex.entry}`, changed: [...cex.inputs.keys()], state: asText(cex.inputs) }];
  for (const step of run.trace ?? []) {
    if (step.kind === 'return') {
      frames.length = Math.max(1, step.depth + 1);
    }
    if (step.kind === 'call') frames[step.depth + 1] = new Map();
    const depth = step.kind === 'call' ? step.depth + 1 : step.depth;
    const frame = frames[depth] ?? (frames[depth] = new Map());
    for (const [k, v] of step.values) frame.set(k, v);
    if (step.kind === 'return') continue;
    rows.push({ line: step.pos.line, procedure: step.procedure, depth: step.depth, text: step.text, changed: [...step.values.keys()], state: asText(frame).filter(([k]) => !k.startsWith('$') && !k.startsWith('__')) });
  }
  return rows.length <= MAX_TRACE_ROWS ? rows : [...rows.slice(0, MAX_TRACE_ROWS / 2), ...rows.slice(-MAX_TRACE_ROWS / 2)];
}
