// Mode `bounds`: loop bounds over the parameters (paper 004, Claim 1), per loop the certified bound
// (under a precondition when the loop does not terminate for every input), the input on which it is
// attained, and the invariants that prove it. The selected loop (up/down) is shown first.
import { type Problem, type Settings, ANALYSES, type BoundsEvent, type BoundsResult } from '../../../lib/index.js';
import { boundsJson } from '../../report/bounds.js';
import type { Emit, Job } from '../protocol.js';
import { conditionEvents } from './progress.js';
import type { Mode, ResultProps } from './types.js';
import { LineList, type ResultLine } from './line-list.js';

export interface LoopBoundView {
  readonly line: number;
  readonly col: number;
  /** C expression, or null when none was proved. */
  readonly bound: string | null;
  /** "1" when the bound holds for every input. */
  readonly precondition: string;
  readonly certified: boolean;
  readonly locallyWeakest?: boolean;
  readonly invariants: readonly { readonly line: number; readonly expression: string }[];
  /** The replayed input on which the loop runs exactly `bound` times. */
  readonly tight?: string;
  readonly reason?: string;
}

export interface BoundsData {
  readonly function: string;
  readonly parameters: readonly string[];
  readonly loops: readonly LoopBoundView[];
  /** Per recursive procedure: its call bound, or why there is none, as one line. */
  readonly procedures: readonly { readonly procedure: string; readonly summary: string }[];
  readonly runs: number;
  readonly nonTerminatingRuns: number;
  readonly millis: number;
  readonly json: object;
}

export function boundsData(file: string, r: BoundsResult): BoundsData {
  return {
    function: r.function,
    parameters: r.parameters,
    loops: r.loops.map((l) => ({
      line: l.line,
      col: l.col,
      bound: l.bound,
      precondition: l.precondition,
      certified: l.certified,
      ...(l.locallyWeakest !== undefined ? { locallyWeakest: l.locallyWeakest } : {}),
      invariants: l.invariants,
      ...(l.tight ? { tight: `${[...l.tight.input].map(([k, v]) => `${k}=${v}`).join(', ') || 'the default run'}${l.tight.nondet.length > 0 ? ` (nondet ${l.tight.nondet.join(',')})` : ''}: ${l.tight.iterations} iteration${l.tight.iterations === 1n ? '' : 's'}` } : {}),
      ...(l.reason ? { reason: l.reason } : {}),
    })),
    // A recursive procedure's line reads as its result: the bound on its calls, or why there is none.
    procedures: r.procedures.map((p) => ({ procedure: p.procedure, summary: p.bound ? `at most ${p.bound} calls per call${p.precondition === '1' ? '' : ` if ${p.precondition}`}${p.certified ? ' [certified]' : ''}` : `no bound (${p.reason ?? 'unknown'})` })),
    runs: r.runs,
    nonTerminatingRuns: r.nonTerminatingRuns,
    millis: r.millis,
    json: boundsJson(file, r),
  };
}

/** Bounds' own progress as Search-pane phases: the runs sampled, each candidate and each loop's result
 * (the proofs' steps and the conditional bounds' queries come through `onProgress`, as rows). */
export function boundsEvents(emit: Emit): (e: BoundsEvent) => void {
  const phase = (text: string) => emit({ type: 'search', event: { kind: 'phase', text } });
  return (e) => {
    if (e.kind === 'sampled') phase(`${e.runs} concrete runs (${e.nonTerminating} did not return)`);
    else if (e.kind === 'candidate') phase(`line ${e.line}: proving at most ${e.bound} iterations`);
    else phase(`line ${e.line}: ${e.bound === null ? 'no bound' : `bound ${e.bound}`} ${e.verdict}`);
  };
}

async function run(problem: Problem, settings: Settings, job: Job, emit: Emit): Promise<void> {
  emit({ type: 'search', event: { kind: 'phase', text: 'counting iterations on concrete runs' } });
  const r = await ANALYSES.bounds.run(problem, settings, {
    onBoundsProgress: boundsEvents(emit),
    // Each candidate's proof (the constraint engine's steps) and the weakest-precondition search of
    // conditional bounds (its queries): the Search pane's rows.
    onProgress: conditionEvents(emit),
  });
  emit({ type: 'result', data: boundsData(job.file, r) });
}

function loopLines(l: LoopBoundView, selected: boolean): ResultLine[] {
  const mark = selected ? '>' : ' ';
  if (l.bound === null) return [{ text: `${mark}line ${l.line}: no bound (${l.reason ?? 'unknown'})`, bold: selected }];
  return [
    { text: `${mark}line ${l.line}: at most ${l.bound}  ${l.certified ? '[certified]' : '[not certified]'}`, bold: true },
    ...(l.precondition === '1' ? [] : [{ text: `   if ${l.precondition}${l.locallyWeakest ? ' (locally weakest)' : ''}`, bold: true }]),
    ...(l.tight ? [{ text: `   attained on ${l.tight}` }] : []),
    ...l.invariants.map((i) => ({ text: `   invariant line ${i.line}: ${i.expression}`, dim: true })),
  ];
}

function LoopBounds({ data, selected, width, height, color, scroll, onScrollRange }: ResultProps<BoundsData>) {
  const isSelected = (l: LoopBoundView) => selected !== null && l.line === selected.line;
  // The selected loop first, so that it stays visible in a short pane.
  const ordered = [...data.loops.filter(isSelected), ...data.loops.filter((l) => !isSelected(l))];
  const lines: ResultLine[] = [{ text: `iterations of ${data.function}(${data.parameters.join(', ')})'s loops:`, dim: true }];
  if (data.loops.length === 0) lines.push({ text: 'no loops' });
  for (const l of ordered) lines.push(...loopLines(l, isSelected(l)));
  for (const p of data.procedures) lines.push({ text: `procedure ${p.procedure}: ${p.summary}` });
  lines.push({ text: `${data.runs} runs (${data.nonTerminatingRuns} did not return), ${(data.millis / 1000).toFixed(1)} s`, dim: true });
  return <LineList lines={lines} width={width} height={height} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />;
}

export const boundsMode: Mode<BoundsData> = {
  key: 'b',
  id: 'bounds',
  name: 'loop bounds',
  run,
  Result: LoopBounds,
  marks: (d) => d.loops.map((l) => ({ line: l.line, col: l.col })),
  exportJson: (d) => d.json,
};
