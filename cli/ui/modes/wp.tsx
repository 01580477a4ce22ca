// Mode `wp`: weakest preconditions (paper 004, Section 4), several answers as a list, each with the
// replayed failing inputs that show its neighbours are not preconditions.
import { type Problem, type Settings, ANALYSES, type WpResult } from '../../../lib/index.js';
import type { Emit, Job } from '../protocol.js';
import { conditionEvents } from './progress.js';
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

async function run(problem: Problem, settings: Settings, job: Job, emit: Emit): Promise<void> {
  const strategy = job.options.strategy === 'binary' ? 'binary' : 'neighbourhood';
  emit({ type: 'search', event: { kind: 'phase', text: `${strategy} search: sampling inputs` } });
  const r = await ANALYSES.wp.run(problem, settings, { strategy, maxAnswers: MAX_ANSWERS, onProgress: conditionEvents(emit, MAX_ANSWERS) });
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

function Preconditions({ data, width, height, color, scroll, onScrollRange }: ResultProps<WpData>) {
  const lines: ResultLine[] = [];
  lines.push({ text: `preconditions of ${data.function}(${data.parameters.join(', ')}), ${data.strategy}:`, dim: true });
  if (data.preconditions.length === 0) lines.push({ text: `none found: ${data.reason ?? 'no reason given'}` });
  data.preconditions.forEach((p, i) => {
    lines.push({ text: `${i + 1}. ${shownCondition(p.expression)}  ${p.certified ? '[certified]' : '[not certified]'}${p.locallyOptimal ? ' [locally weakest]' : ''}`, bold: true });
    for (const n of p.neighbours) lines.push({ text: `   not ${n.expression}: ${n.witness ?? n.note ?? '-'}`, dim: true });
  });
  lines.push({ text: `${data.queries} solver queries, ${data.concreteRuns} runs, ${(data.millis / 1000).toFixed(1)} s`, dim: true });
  return <LineList lines={lines} width={width} height={height} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />;
}

export const wpMode: Mode<WpData> = {
  key: 'w',
  id: 'wp',
  name: 'weakest preconditions',
  run,
  Result: Preconditions,
  exportJson: (d) => d,
};
