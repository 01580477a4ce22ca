// Mode `sp`: the strongest postcondition at the function's exit (paper 004, Section 4), with the
// reachable states that show each tighter neighbour is violated.
import { type Problem, type Settings, ANALYSES, type SpResult } from '../../../lib/index.js';
import type { Emit, Job } from '../protocol.js';
import type { ConditionView } from './wp.js';
import { conditionEvents } from './progress.js';
import { cutpointMarks } from './verify.js';
import type { Mode, ResultProps } from './types.js';
import { LineList, type ResultLine } from './line-list.js';

export interface SpData {
  readonly function: string;
  readonly line: number;
  /** The function's exit, or the cut-point on `line` (`l` in the UI, `--at` on the command line). */
  readonly at: 'exit' | 'cutpoint';
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
    at: r.at,
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

async function run(problem: Problem, settings: Settings, job: Job, emit: Emit): Promise<void> {
  // The cut-points, so that one can be selected for `l` (sp at its line).
  emit({ type: 'cutpoints', points: cutpointMarks(problem, settings) });
  emit({ type: 'search', event: { kind: 'phase', text: 'sampling runs' } });
  const r = await ANALYSES.sp.run(problem, settings, {
    ...(job.options.atLine !== undefined ? { atLine: job.options.atLine } : {}),
    // One postcondition: the answers bar ends at 1.
    onProgress: conditionEvents(emit, 1),
  });
  emit({ type: 'result', data: spData(r) });
}

function Postcondition({ data, width, height, color, scroll, onScrollRange }: ResultProps<SpData>) {
  const p = data.postcondition;
  const lines: ResultLine[] = [{ text: `strongest postcondition of ${data.function} ${data.at === 'exit' ? 'at the exit' : `at the cut-point on line ${data.line}`} over ${data.variables.join(', ')}:`, dim: true }];
  if (!p) lines.push({ text: `none found: ${data.reason ?? 'no reason given'}` });
  else {
    lines.push({ text: `${p.expression}  ${p.certified ? '[certified]' : '[not certified]'}${p.locallyOptimal ? ' [locally strongest]' : ''}`, bold: true });
    for (const n of p.neighbours) lines.push({ text: `   not ${n.expression}: ${n.witness ?? n.note ?? '-'}`, dim: true });
  }
  lines.push({ text: `${data.queries} solver queries, ${(data.millis / 1000).toFixed(1)} s`, dim: true });
  return <LineList lines={lines} width={width} height={height} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />;
}

export const spMode: Mode<SpData> = {
  key: 's',
  id: 'sp',
  name: 'strongest postcondition',
  run,
  Result: Postcondition,
  exportJson: (d) => d,
};
