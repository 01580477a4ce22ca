// Mode `cex`: most-general counterexamples for safety (paper 004, Claim 2): each failing condition on
// the parameters, and the first one's replayed failing run as a step-through trace (n/p) linked to the
// source pane. The most-general search can take minutes (Fig. 10); the first concrete failing run the
// library finds (replayed by the interpreter) is shown at once, steppable, while the search goes on.
import { Box } from 'ink';
import { type Problem, type Program, type Settings, ANALYSES, type CexResult, type ConcreteCounterexample, runResultToJson } from '../../../lib/index.js';
import { cexJson } from '../../report/conditions.js';
import type { Emit, Job } from '../protocol.js';
import { recordTrace, type TraceRow } from '../trace.js';
import { TraceView } from '../trace-view.js';
import { conditionEvents } from './progress.js';
import type { Mode, ResultProps } from './types.js';
import { LineList, rowCount, type ResultLine } from './line-list.js';

export interface CexConditionView {
  readonly expression: string;
  readonly certified: boolean;
  readonly inputs: string;
  readonly line: number;
}

/** A failing run found by sampling before any condition (not a condition: no search backs it). */
export interface ConcreteView {
  readonly inputs: string;
  readonly line: number;
}

export interface CexData {
  readonly function: string;
  /** True while the most-general search is still running (a provisional result). */
  readonly searching?: boolean;
  readonly conditions: readonly CexConditionView[];
  /** The first concrete failing run found, replayed by the interpreter. */
  readonly concrete?: ConcreteView;
  /** The first condition's replayed run, else the concrete one's, one row per step. */
  readonly trace?: readonly TraceRow[];
  readonly dropped: readonly { readonly expression: string; readonly reason: string }[];
  readonly reason?: string;
  readonly queries: number;
  readonly millis: number;
  readonly json: object;
}

/** cex's own default: the most failing conditions it looks for. */
const CEX_MAX_ANSWERS = 4;

const inputsText = (inputs: ReadonlyMap<string, bigint>, nondet: readonly bigint[]): string =>
  [...[...inputs].map(([k, v]) => `${k}=${v}`), ...(nondet.length > 0 ? [`nondet ${nondet.join(',')}`] : [])].join(', ') || '(no inputs)';

function concreteView(c: ConcreteCounterexample): ConcreteView {
  return { inputs: inputsText(c.input, c.nondet), line: c.line };
}

/** The provisional result: the concrete failing run, stepped, while the conditions are searched. */
export function concreteCexData(program: Program, file: string, fn: string, c: ConcreteCounterexample): CexData {
  return {
    function: fn,
    searching: true,
    conditions: [],
    concrete: concreteView(c),
    trace: recordTrace(program, { entry: fn, inputs: c.input, nondet: c.nondet }),
    dropped: [],
    queries: 0,
    millis: 0,
    json: { file, function: fn, searching: true, concreteCounterexample: concreteJson(c) },
  };
}

function concreteJson(c: ConcreteCounterexample): object {
  return { input: Object.fromEntries([...c.input].map(([k, v]) => [k, v.toString()])), nondet: c.nondet.map(String), line: c.line, replayed: true, trace: runResultToJson(c.run) };
}

export function cexData(program: Program, file: string, r: CexResult, concrete?: ConcreteCounterexample): CexData {
  const first = r.conditions[0];
  const traced = first ? { inputs: first.input, nondet: first.nondet } : concrete ? { inputs: concrete.input, nondet: concrete.nondet } : null;
  return {
    function: r.function,
    conditions: r.conditions.map((c) => ({ expression: c.expression, certified: c.certified, inputs: inputsText(c.input, c.nondet), line: c.line })),
    ...(concrete ? { concrete: concreteView(concrete) } : {}),
    ...(traced ? { trace: recordTrace(program, { entry: r.function, ...traced }) } : {}),
    dropped: r.dropped,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    queries: r.stats.queries.length,
    millis: r.stats.millis,
    json: { ...cexJson(file, r), ...(concrete ? { concreteCounterexample: concreteJson(concrete) } : {}) },
  };
}

async function run(problem: Problem, settings: Settings, job: Job, emit: Emit): Promise<void> {
  emit({ type: 'search', event: { kind: 'phase', text: 'looking for a failing input' } });
  const { program, function: fn } = problem;
  let concrete: ConcreteCounterexample | undefined;
  const r = await ANALYSES.cex.run(problem, settings, {
    maxAnswers: CEX_MAX_ANSWERS,
    onProgress: conditionEvents(emit, CEX_MAX_ANSWERS),
    // The UI waits longer than the library's default for a first failing input: on a loaded machine
    // Bug1's (the 752nd sampled input) can take several seconds, and it is worth showing at once.
    onCounterexample: (c) => {
      concrete = c;
      emit({ type: 'partial', data: concreteCexData(program, job.file, fn, c) });
      emit({ type: 'search', event: { kind: 'phase', text: 'instrumenting (error variable) and sampling inputs' } });
    },
  });
  emit({ type: 'result', data: cexData(program, job.file, r, concrete) });
}

function FailingConditions({ data, traceIndex, width, height, color, scroll, onScrollRange }: ResultProps<CexData>) {
  const lines: ResultLine[] = [];
  if (data.searching) lines.push({ text: 'searching most-general conditions…', dim: true });
  else if (data.conditions.length === 0) lines.push({ text: `no failing condition: ${data.reason ?? 'no reason given'}`, bold: true });
  data.conditions.forEach((c, i) => lines.push({ text: `${i + 1}. ${c.expression}  ${c.certified ? '[certified]' : '[not certified]'}`, bold: true }));
  for (const d of data.dropped) lines.push({ text: `dropped ${d.expression}: ${d.reason}`, dim: true });
  if (!data.trace || data.trace.length === 0) {
    lines.push({ text: `${data.queries} solver queries, ${(data.millis / 1000).toFixed(1)} s`, dim: true });
    return <LineList lines={lines} height={height} width={width} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />;
  }
  // The conditions on top (at most half the pane), the traced run below: the first condition's, or
  // the concrete counterexample's when there is no condition (yet).
  const listHeight = Math.min(rowCount(lines, width), Math.max(1, Math.floor(height / 2) - 1));
  const first = data.conditions[0];
  const title = first ? `1: ${first.inputs} fails at line ${first.line}` : `concrete counterexample (replayed): ${data.concrete!.inputs} fails at line ${data.concrete!.line}`;
  return (
    <Box flexDirection="column">
      <LineList lines={lines} height={listHeight} width={width} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />
      <TraceView title={title} rows={data.trace} index={traceIndex} width={width} height={height - listHeight} color={color} />
    </Box>
  );
}

export const cexMode: Mode<CexData> = {
  key: 'C',
  id: 'cex',
  name: 'failing conditions',
  run,
  Result: FailingConditions,
  trace: (d) => d.trace,
  exportJson: (d) => d.json,
};
