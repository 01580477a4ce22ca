// Mode `nonterm`: most-general counterexamples for termination (paper 004, Claim 3): conditions under
// which the function never returns, each with its recurrent-set invariants and the first loop-head
// states of a run from an input inside it.
import { type Problem, type Settings, ANALYSES, type NontermResult } from '../../../lib/index.js';
import { nontermJson } from '../../report/conditions.js';
import type { Emit, Job } from '../protocol.js';
import { conditionEvents } from './progress.js';
import type { Mode, ResultProps } from './types.js';
import { LineList, type ResultLine } from './line-list.js';

export interface NontermConditionView {
  readonly expression: string;
  readonly certified: boolean;
  readonly locallyOptimal: boolean;
  readonly invariants: readonly { readonly line: number; readonly expression: string }[];
  readonly neighbours: readonly { readonly expression: string; readonly why: string }[];
  /** The input of the shown run, when one inside the condition ran out of steps. */
  readonly input?: string;
  readonly iterations: readonly { readonly line: number; readonly values: string }[];
}

export interface NontermData {
  readonly function: string;
  readonly verdict: string;
  readonly conditions: readonly NontermConditionView[];
  readonly reason?: string;
  readonly queries: number;
  readonly millis: number;
  readonly json: object;
}

const valuesText = (m: ReadonlyMap<string, bigint>): string => [...m].map(([k, v]) => `${k}=${v}`).join(' ');

export function nontermData(file: string, r: NontermResult): NontermData {
  return {
    function: r.function,
    verdict: r.verdict,
    conditions: r.conditions.map((c) => ({
      expression: c.expression,
      certified: c.certified,
      locallyOptimal: c.locallyOptimal,
      invariants: c.invariants,
      neighbours: c.neighbours.map((n) => ({ expression: n.expression, why: n.replayed && n.input ? `returns on ${valuesText(n.input)}` : n.note ?? 'not refuted' })),
      ...(c.input ? { input: valuesText(c.input) } : {}),
      iterations: c.iterationsShown.map((s) => ({ line: s.line, values: valuesText(s.values) })),
    })),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    queries: r.stats.queries.length,
    millis: r.stats.millis,
    json: nontermJson(file, r),
  };
}

async function run(problem: Problem, settings: Settings, job: Job, emit: Emit): Promise<void> {
  emit({ type: 'search', event: { kind: 'phase', text: 'assert(false) at the exit; sampling inputs' } });
  const r = await ANALYSES.nonterm.run(problem, settings, {
    // The termination proof's bound and ranking-function proofs (steps of the constraint engine) and
    // the search's queries are rows.
    onProgress: conditionEvents(emit),
  });
  emit({ type: 'result', data: nontermData(job.file, r) });
}

function NontermConditions({ data, width, height, color, scroll, onScrollRange }: ResultProps<NontermData>) {
  const lines: ResultLine[] = [{ text: `${data.function}: ${data.verdict}${data.reason ? ` (${data.reason})` : ''}`, dim: data.conditions.length > 0 }];
  data.conditions.forEach((c, i) => {
    lines.push({ text: `${i + 1}. ${c.expression}  ${c.certified ? '[certified]' : '[not certified]'}${c.locallyOptimal ? ' [locally weakest]' : ''}`, bold: true });
    for (const inv of c.invariants) lines.push({ text: `   recurrent set, line ${inv.line}: ${inv.expression}`, dim: true });
    if (c.input) lines.push({ text: `   runs forever from ${c.input}:` });
    for (const [k, s] of c.iterations.entries()) lines.push({ text: `   iteration ${k + 1} (line ${s.line}): ${s.values}` });
    for (const n of c.neighbours) lines.push({ text: `   not ${n.expression}: ${n.why}`, dim: true });
  });
  lines.push({ text: `${data.queries} solver queries, ${(data.millis / 1000).toFixed(1)} s`, dim: true });
  return <LineList lines={lines} width={width} height={height} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />;
}

export const nontermMode: Mode<NontermData> = {
  key: 'N',
  id: 'nonterm',
  name: 'non-termination conditions',
  run,
  Result: NontermConditions,
  exportJson: (d) => d.json,
};
