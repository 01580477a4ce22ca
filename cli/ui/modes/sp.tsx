// Mode `sp`: the strongest postcondition at the function's exit (paper 004, Section 4), with the
// reachable states that show each tighter neighbour is violated.
import type { Program } from '../../../lib/ir/cfg.js';
import { sp } from '../../../lib/conditions/sp.js';
import type { SpResult } from '../../../lib/conditions/types.js';
import type { Emit, Job } from '../protocol.js';
import { conditionEvents, type ConditionView } from './wp.js';
import type { Mode, ResultProps } from './types.js';
import { LineList, type ResultLine } from './line-list.js';

export interface SpData {
  readonly function: string;
  readonly line: number;
  readonly variables: readonly string[];
  readonly postcondition: ConditionView | null;
  readonly reason?: string;
  readonly queries: number;
  readonly millis: number;
}

export function spData(r: SpResult): SpData {
  const p = r.postcondition;
  return {
    function: r.function,
    line: r.line,
    variables: r.variables,
    postcondition: p
      ? {
          expression: p.expression,
          certified: p.certified,
          locallyOptimal: p.locallyOptimal,
          invariants: p.invariants,
          neighbours: p.neighbours.map((n) => ({
            expression: n.expression,
            replayed: n.replayed,
            ...(n.state ? { witness: `reaches ${[...n.state].map(([k, v]) => `${k}=${v}`).join(', ')}` } : {}),
            ...(n.note ? { note: n.note } : {}),
          })),
        }
      : null,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    queries: r.stats.queries.length,
    millis: r.stats.millis,
  };
}

async function run(program: Program, job: Job, emit: Emit): Promise<void> {
  emit({ type: 'search', event: { kind: 'phase', text: 'sampling runs' } });
  const r = await sp(program, {
    ...(job.options.function !== undefined ? { function: job.options.function } : {}),
    cutset: job.options.cutset,
    schedule: job.options.schedule,
    ...(job.options.timeoutMs !== undefined ? { timeoutMs: job.options.timeoutMs } : {}),
    onProgress: conditionEvents(emit),
  });
  emit({ type: 'result', data: spData(r) });
}

function Postcondition({ data, height, color }: ResultProps<SpData>) {
  const p = data.postcondition;
  const lines: ResultLine[] = [{ text: `strongest postcondition of ${data.function} at line ${data.line} over ${data.variables.join(', ')}:`, dim: true }];
  if (!p) lines.push({ text: `none found: ${data.reason ?? 'no reason given'}` });
  else {
    lines.push({ text: `${p.expression}  ${p.certified ? '[certified]' : '[not certified]'}${p.locallyOptimal ? ' [locally strongest]' : ''}`, bold: true });
    for (const n of p.neighbours) lines.push({ text: `   not ${n.expression}: ${n.witness ?? n.note ?? '-'}`, dim: true });
  }
  lines.push({ text: `${data.queries} solver queries, ${(data.millis / 1000).toFixed(1)} s`, dim: true });
  return <LineList lines={lines} height={height} color={color} />;
}

export const spMode: Mode<SpData> = {
  key: 's',
  id: 'sp',
  name: 'strongest postcondition',
  run,
  Result: Postcondition,
  exportJson: (d) => d,
};
