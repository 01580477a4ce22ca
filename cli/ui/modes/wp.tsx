// Mode `wp`: weakest preconditions (paper 004, Section 4), several answers as a list, each with the
// replayed failing inputs that show its neighbours are not preconditions.
import { type Program, wp, type ConditionEvent, type WpResult } from '../../../lib/index.js';
import type { Emit, Job, SearchEvent } from '../protocol.js';
import type { Mode, ResultProps } from './types.js';
import { LineList, type ResultLine } from './line-list.js';
import { shownCondition } from '../../report/conditions.js';

export interface ConditionView {
  readonly expression: string;
  readonly certified: boolean;
  readonly locallyOptimal: boolean;
  readonly invariants: readonly { readonly line: number; readonly expression: string }[];
  readonly neighbours: readonly { readonly expression: string; readonly witness?: string; readonly replayed: boolean; readonly note?: string }[];
}

export interface WpData {
  readonly function: string;
  readonly strategy: string;
  readonly parameters: readonly string[];
  readonly preconditions: readonly ConditionView[];
  readonly reason?: string;
  readonly queries: number;
  readonly concreteRuns: number;
  readonly millis: number;
}

const MAX_ANSWERS = 3;

/** "7" or "7/2" as numerator and denominator; null for anything else. */
function fraction(text: string): readonly [bigint, bigint] | null {
  const m = /^(-?\d+)(?:\/(\d+))?$/.exec(text);
  return m && m[2] !== '0' ? [BigInt(m[1]!), BigInt(m[2] ?? '1')] : null;
}

/** Maps the search's events to Search-pane rows; the binary search's bar shrinks with its interval.
 * `maxAnswers`: the most answers the search reports (the answers bar's end). */
export function conditionEvents(emit: Emit, maxAnswers = MAX_ANSWERS): (e: ConditionEvent) => void {
  const initialWidth = new Map<string, bigint>();
  let answers = 0;
  const send = (event: SearchEvent) => emit({ type: 'search', event });
  return (e) => {
    switch (e.kind) {
      case 'sampled':
        send({ kind: 'phase', text: `sampled ${e.passing} passing, ${e.failing} failing inputs` });
        return;
      case 'query-start':
        send({ kind: 'row-start', index: e.index, template: e.template, widths: `${e.conjuncts} conj`, purpose: e.purpose });
        return;
      case 'query-done':
        send({ kind: 'row-done', index: e.index, variables: e.stats.variables, clauses: e.stats.clauses, satMillis: e.stats.satMillis, result: e.stats.result, ...(e.stats.reason ? { reason: e.stats.reason } : {}) });
        return;
      case 'answer':
        // An answer a later one contains is dropped by the search: more may be found than are reported.
        answers++;
        send({ kind: 'phase', text: `answer: ${e.expression}` });
        send({ kind: 'bar', label: answers <= maxAnswers ? `answers ${answers}/${maxAnswers}` : `answers ${answers} found (at most ${maxAnswers} reported)`, fraction: Math.min(1, answers / maxAnswers) });
        return;
      case 'binary-step': {
        // The bounds are integers or fractions in units of the search's denominator ("3/2").
        const low = fraction(e.low);
        const high = fraction(e.high);
        if (!low || !high) return;
        const width = high[0] * low[1] - low[0] * high[1];
        const first = initialWidth.get(e.entry) ?? width;
        initialWidth.set(e.entry, first);
        // Display only: bits of the interval left, relative to the start.
        const bits = (w: bigint) => (w <= 0n ? 0 : w.toString(2).length);
        const done = bits(first) === 0 ? 1 : 1 - bits(width) / bits(first);
        send({ kind: 'bar', label: `${e.entry} in [${e.low}, ${e.high}]`, fraction: done });
        return;
      }
    }
  };
}

async function run(program: Program, job: Job, emit: Emit): Promise<void> {
  const strategy = job.options.strategy === 'binary' ? 'binary' : 'neighbourhood';
  emit({ type: 'search', event: { kind: 'phase', text: `${strategy} search: sampling inputs` } });
  const r = await wp(program, {
    strategy,
    maxAnswers: MAX_ANSWERS,
    ...(job.options.function !== undefined ? { function: job.options.function } : {}),
    cutset: job.options.cutset,
    schedule: job.options.schedule,
    ...(job.options.timeoutMs !== undefined ? { timeoutMs: job.options.timeoutMs } : {}),
    onProgress: conditionEvents(emit),
  });
  emit({ type: 'result', data: wpData(r) });
}

export function wpData(r: WpResult): WpData {
  return {
    function: r.function,
    strategy: r.strategy,
    parameters: r.parameters,
    preconditions: r.preconditions.map((p) => ({
      expression: p.expression,
      certified: p.certified,
      locallyOptimal: p.locallyOptimal,
      invariants: p.invariants,
      neighbours: p.neighbours.map((n) => ({
        expression: n.expression,
        replayed: n.replayed,
        ...(n.input ? { witness: [...n.input].map(([k, v]) => `${k}=${v}`).join(', ') + (n.line !== undefined ? ` fails line ${n.line}` : '') } : {}),
        ...(n.note ? { note: n.note } : {}),
      })),
    })),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    queries: r.stats.queries.length,
    concreteRuns: r.stats.concreteRuns,
    millis: r.stats.millis,
  };
}

function Preconditions({ data, width, height, color }: ResultProps<WpData>) {
  const lines: ResultLine[] = [];
  lines.push({ text: `preconditions of ${data.function}(${data.parameters.join(', ')}), ${data.strategy}:`, dim: true });
  if (data.preconditions.length === 0) lines.push({ text: `none found: ${data.reason ?? 'no reason given'}` });
  data.preconditions.forEach((p, i) => {
    lines.push({ text: `${i + 1}. ${shownCondition(p.expression)}  ${p.certified ? '[certified]' : '[not certified]'}${p.locallyOptimal ? ' [locally weakest]' : ''}`, bold: true });
    for (const n of p.neighbours) lines.push({ text: `   not ${n.expression}: ${n.witness ?? n.note ?? '-'}`, dim: true });
  });
  lines.push({ text: `${data.queries} solver queries, ${data.concreteRuns} runs, ${(data.millis / 1000).toFixed(1)} s`, dim: true });
  return <LineList lines={lines} width={width} height={height} color={color} />;
}

export const wpMode: Mode<WpData> = {
  key: 'w',
  id: 'wp',
  name: 'weakest preconditions',
  run,
  Result: Preconditions,
  exportJson: (d) => d,
};
