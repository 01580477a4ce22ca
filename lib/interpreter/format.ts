// Human-readable and JSON renderings of a run, for the CLI and for counterexample reports.
import type { Program, SourcePos } from '../ir/cfg.js';
import type { RunOutcome, RunResult, TraceStep } from './types.js';

export type TraceDetail = 'none' | 'lines' | 'full';

export interface FormatOptions {
  /** 'lines' (default): the visited source lines; 'full': every step with the values it set. Needs a
   * result recorded with `recordTrace`. */
  readonly trace?: TraceDetail;
  /** Longest 'lines' summary before the middle is elided. */
  readonly maxLines?: number;
}

function at(pos: SourcePos | null): string {
  return pos ? `${pos.file}:${pos.line}` : '<unknown position>';
}

export function describeOutcome(outcome: RunOutcome, result: Pick<RunResult, 'entry'>, program?: Program): string {
  switch (outcome.kind) {
    case 'exit': {
      if (outcome.returnValue !== null) return `normal exit: ${result.entry} returned ${outcome.returnValue}`;
      const isVoid = program?.procedures.get(result.entry)?.returnVar === null;
      return `normal exit: ${result.entry} returned${isVoid ? '' : ' (no value)'}`;
    }
    case 'assertion-failed':
      return `${at(outcome.pos)}: assertion failed (in ${outcome.procedure})`;
    case 'assume-blocked':
      return `${at(outcome.pos)}: run blocked: no branch or assumption holds (in ${outcome.procedure})`;
    case 'step-limit':
      return outcome.limit === 'steps'
        ? `step limit reached: ${outcome.max} steps (in ${outcome.procedure} near ${at(outcome.pos)})`
        : `call depth limit reached: ${outcome.max} frames (in ${outcome.procedure} at ${at(outcome.pos)})`;
    case 'nondet-exhausted':
      return `${at(outcome.pos)}: ran out of nondet values (in ${outcome.procedure})`;
    case 'overflow':
      return `${at(outcome.pos)}: signed overflow (undefined behaviour in C; the run stops here) (in ${outcome.procedure})`;
    case 'nondet-out-of-range':
      return `${at(outcome.pos)}: nondet value ${outcome.value} is outside its type's range [${outcome.range.lo}, ${outcome.range.hi}] (in ${outcome.procedure}): this run cannot happen in C`;
  }
}

function assignments(values: ReadonlyMap<string, bigint>): string {
  return [...values].map(([k, v]) => `${k}=${v}`).join(', ');
}

/** Visited source lines, consecutive repeats merged, `f:` marking a change of procedure. */
export function visitedLines(trace: readonly TraceStep[]): string[] {
  const out: string[] = [];
  let lastProc: string | null = null;
  let lastLine: number | null = null;
  let lastFile: string | null = null;
  for (const step of trace) {
    if (step.kind === 'return') continue;
    if (step.procedure === lastProc && step.pos.line === lastLine && step.pos.file === lastFile) continue;
    out.push(step.procedure === lastProc || lastProc === null ? `${step.pos.line}` : `${step.procedure}:${step.pos.line}`);
    lastProc = step.procedure;
    lastLine = step.pos.line;
    lastFile = step.pos.file;
  }
  return out;
}

/** Folds immediately repeated blocks (loop iterations): `9 10 9 10 9 10` becomes `(9 10)×3`. */
export function foldRepeats(tokens: readonly string[], maxPeriod = 12): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    let best: { period: number; count: number } | null = null;
    for (let period = 1; period <= maxPeriod && i + 2 * period <= tokens.length; period++) {
      let count = 1;
      while (i + (count + 1) * period <= tokens.length && sameBlock(tokens, i, i + count * period, period)) count++;
      // Prefer the fold covering the most tokens; on a tie the shorter period (it came first).
      if (count >= 2 && (!best || count * period > best.count * best.period)) best = { period, count };
    }
    if (best) {
      const block = tokens.slice(i, i + best.period).join(' ');
      out.push(best.period === 1 ? `${block}×${best.count}` : `(${block})×${best.count}`);
      i += best.period * best.count;
    } else {
      out.push(tokens[i]!);
      i++;
    }
  }
  return out;
}

function sameBlock(tokens: readonly string[], a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) if (tokens[a + k] !== tokens[b + k]) return false;
  return true;
}

function fullTrace(trace: readonly TraceStep[]): string[] {
  const lines: string[] = [];
  let n = 0;
  for (const step of trace) {
    if (step.kind !== 'return') n++;
    const indent = '  '.repeat(step.depth);
    const number = step.kind === 'return' ? '    ' : `#${n}`.padStart(4);
    const text = step.kind === 'call' ? `call ${step.text}` : step.text;
    const vals = step.values.size > 0 ? `  [${assignments(step.values)}]` : '';
    const nd = step.nondet ? `  (nondet ${step.nondet.join(', ')})` : '';
    lines.push(`  ${number} ${step.pos.file}:${step.pos.line}  ${indent}${step.procedure}: ${text}${vals}${nd}`);
  }
  return lines;
}

export function formatRunResult(result: RunResult, program: Program, options: FormatOptions = {}): string {
  const lines = [describeOutcome(result.outcome, result, program)];
  if (result.inputs.size > 0) {
    const fromNondet = result.inputsFromNondet.length > 0 ? ` (from the nondet stream: ${result.inputsFromNondet.join(', ')})` : '';
    lines.push(`inputs: ${assignments(result.inputs)}${fromNondet}`);
  }
  if (result.globals.size > 0) lines.push(`globals at the end: ${assignments(result.globals)}`);
  let nondet = `${result.nondetConsumed.length} nondet value${result.nondetConsumed.length === 1 ? '' : 's'} consumed`;
  const past: string[] = [];
  if (result.nondetDefaulted > 0) past.push(`${result.nondetDefaulted} defaulted to ${result.nondetDefault}`);
  if (result.nondetSolved > 0) past.push(`${result.nondetSolved} division/modulo quotient${result.nondetSolved === 1 ? '' : 's'} computed`);
  if (past.length > 0) nondet += ` (${past.join(' and ')} after the given ones ran out)`;
  lines.push(`steps: ${result.steps}; ${nondet}`);
  const detail = options.trace ?? 'lines';
  if (result.trace && detail === 'lines') {
    const visited = foldRepeats(visitedLines(result.trace));
    const max = options.maxLines ?? 60;
    const head = Math.floor(max / 4);
    const shown =
      visited.length <= max
        ? visited
        : [...visited.slice(0, head), `… (${visited.length - max} more) …`, ...visited.slice(visited.length - (max - head))];
    lines.push(`visited lines: ${shown.join(' ')}`);
  } else if (result.trace && detail === 'full') {
    lines.push('trace:', ...fullTrace(result.trace));
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// JSON: bigints as decimal strings, maps as objects.

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

function posJson(pos: SourcePos | null): Json {
  return pos ? { file: pos.file, line: pos.line, col: pos.col } : null;
}

function mapJson(m: ReadonlyMap<string, bigint>): { [key: string]: Json } {
  return Object.fromEntries([...m].map(([k, v]) => [k, v.toString()]));
}

export function outcomeToJson(outcome: RunOutcome): { [key: string]: Json } {
  switch (outcome.kind) {
    case 'exit': return { kind: outcome.kind, returnValue: outcome.returnValue === null ? null : outcome.returnValue.toString() };
    case 'assertion-failed': return { kind: outcome.kind, pos: posJson(outcome.pos), procedure: outcome.procedure, edge: outcome.edge };
    case 'assume-blocked': return { kind: outcome.kind, pos: posJson(outcome.pos), procedure: outcome.procedure, location: outcome.location };
    case 'step-limit':
      return { kind: outcome.kind, limit: outcome.limit, max: outcome.max, pos: posJson(outcome.pos), procedure: outcome.procedure };
    case 'nondet-exhausted': return { kind: outcome.kind, pos: posJson(outcome.pos), procedure: outcome.procedure };
    case 'overflow': return { kind: outcome.kind, pos: posJson(outcome.pos), procedure: outcome.procedure };
    case 'nondet-out-of-range':
      return {
        kind: outcome.kind,
        pos: posJson(outcome.pos),
        procedure: outcome.procedure,
        value: outcome.value.toString(),
        range: { lo: outcome.range.lo.toString(), hi: outcome.range.hi.toString() },
      };
  }
}

export function traceStepToJson(step: TraceStep): { [key: string]: Json } {
  const out: { [key: string]: Json } = {
    kind: step.kind,
    procedure: step.procedure,
    depth: step.depth,
    location: step.location,
    to: step.to,
    edge: step.edge,
    pos: posJson(step.pos),
    text: step.text,
    values: mapJson(step.values),
  };
  if (step.nondet) out.nondet = step.nondet.map((v) => v.toString());
  return out;
}

export function runResultToJson(result: RunResult): { [key: string]: Json } {
  const out: { [key: string]: Json } = {
    entry: result.entry,
    outcome: outcomeToJson(result.outcome),
    inputs: mapJson(result.inputs),
    inputsFromNondet: [...result.inputsFromNondet],
    nondetConsumed: result.nondetConsumed.map((v) => v.toString()),
    nondetDefault: result.nondetDefault === null ? null : result.nondetDefault.toString(),
    nondetDefaulted: result.nondetDefaulted,
    nondetSolved: result.nondetSolved,
    steps: result.steps,
    globals: mapJson(result.globals),
  };
  if (result.trace) out.trace = result.trace.map(traceStepToJson);
  return out;
}
