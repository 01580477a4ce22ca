// Mode `cex`: most-general counterexamples for safety (paper 004, Claim 2): each failing condition on
// the parameters, and the first one's replayed failing run as a step-through trace (n/p) linked to the
// source pane.
import { Box, Text } from 'ink';
import type { Program } from '../../../lib/ir/cfg.js';
import { cex, type CexResult } from '../../../lib/conditions/cex.js';
import { cexJson } from '../../commands/conditions.js';
import type { Emit, Job } from '../protocol.js';
import { recordTrace, type TraceRow } from '../trace.js';
import { TraceView } from '../trace-view.js';
import { conditionEvents } from './wp.js';
import type { Mode, ResultProps } from './types.js';
import { LineList, type ResultLine } from './line-list.js';

export interface CexConditionView {
  readonly expression: string;
  readonly certified: boolean;
  readonly inputs: string;
  readonly line: number;
}

export interface CexData {
  readonly function: string;
  readonly conditions: readonly CexConditionView[];
  /** The first condition's replayed run, one row per step. */
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

export function cexData(program: Program, file: string, r: CexResult): CexData {
  const first = r.conditions[0];
  return {
    function: r.function,
    conditions: r.conditions.map((c) => ({ expression: c.expression, certified: c.certified, inputs: inputsText(c.input, c.nondet), line: c.line })),
    ...(first ? { trace: recordTrace(program, { entry: r.function, inputs: first.input, nondet: first.nondet }) } : {}),
    dropped: r.dropped,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    queries: r.stats.queries.length,
    millis: r.stats.millis,
    json: cexJson(file, r),
  };
}

async function run(program: Program, job: Job, emit: Emit): Promise<void> {
  emit({ type: 'search', event: { kind: 'phase', text: 'instrumenting (error variable) and sampling inputs' } });
  const r = await cex(program, {
    ...(job.options.function !== undefined ? { function: job.options.function } : {}),
    maxAnswers: CEX_MAX_ANSWERS,
    cutset: job.options.cutset,
    schedule: job.options.schedule,
    ...(job.options.timeoutMs !== undefined ? { timeoutMs: job.options.timeoutMs } : {}),
    onProgress: conditionEvents(emit, CEX_MAX_ANSWERS),
  });
  emit({ type: 'result', data: cexData(program, job.file, r) });
}

function FailingConditions({ data, traceIndex, width, height, color }: ResultProps<CexData>) {
  const lines: ResultLine[] = [];
  if (data.conditions.length === 0) lines.push({ text: `no failing condition: ${data.reason ?? 'no reason given'}`, bold: true });
  data.conditions.forEach((c, i) => lines.push({ text: `${i + 1}. ${c.expression}  ${c.certified ? '[certified]' : '[not certified]'}`, bold: true }));
  for (const d of data.dropped) lines.push({ text: `dropped ${d.expression}: ${d.reason}`, dim: true });
  if (!data.trace || data.trace.length === 0) {
    lines.push({ text: `${data.queries} solver queries, ${(data.millis / 1000).toFixed(1)} s`, dim: true });
    return <LineList lines={lines} height={height} color={color} />;
  }
  // The conditions on top (at most half the pane), the first condition's run below.
  const listHeight = Math.min(lines.length, Math.max(1, Math.floor(height / 2) - 1));
  const first = data.conditions[0]!;
  return (
    <Box flexDirection="column">
      <LineList lines={lines} height={listHeight} color={color} />
      <TraceView title={`1: ${first.inputs} fails at line ${first.line}`} rows={data.trace} index={traceIndex} width={width} height={height - listHeight} color={color} />
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
