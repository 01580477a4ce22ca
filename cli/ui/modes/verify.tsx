// Mode `verify`: invariants per cut-point (the Invariant pane), a counterexample as a step-through
// trace, and the Engines pane's second opinions on the same program.
import { type Formula, type Problem, type Program, type Settings, type VerifyResult, availableEngines, cutpointPositions, recheckCertificate, witnessFor, formula as F, constraintEngine, crossCheck, CONSTRAINT_ENGINE, type CrossCheckRow, type EngineResult, UI_CROSS_CHECK_ENGINE_TIMEOUT_MS } from '../../../lib/index.js';
import { verifyJson } from '../../report/verify.js';
import type { Emit, EngineRow, Job, SourceMark, WitnessOutcomeView } from '../protocol.js';
import { RowNumbers, stepSearchEvent, widthsText } from './progress.js';
import type { Pin } from '../state.js';
import { recordTrace, type TraceRow } from '../trace.js';
import { TraceView } from '../trace-view.js';
import type { Mode, ResultProps } from './types.js';
import { LineList, rowCount, type ResultLine } from './line-list.js';

export interface VerifyData {
  readonly verdict: string;
  readonly reason?: string;
  readonly certified: boolean;
  readonly function: string;
  readonly schedule: string;
  readonly invariants: readonly { readonly line: number; readonly col: number; readonly expression: string; readonly function: string; readonly formula?: Formula }[];
  /** The pins the search was given (known conjuncts at their line). */
  readonly pinned?: readonly { readonly line: number; readonly expression: string }[];
  /** The template step that found the invariants: the search's sat step (it stops there, with the
   * invariants certified or a rejected candidate). Absent when no step found them. */
  readonly template?: string;
  readonly widths?: string;
  /** The observed bounds (Houdini) proved the program, not a template step (whose steps were unsat). */
  readonly byObservedBounds?: boolean;
  readonly counterexample?: { readonly inputs: string; readonly line: number };
  readonly trace?: readonly TraceRow[];
  readonly json: object;
}

/** Where the cut-points are, before the search answers (same positions the result reports). */
export function cutpointMarks(problem: Problem, settings: Settings): SourceMark[] {
  return cutpointPositions(problem, settings.cutset).map(({ line, col }) => ({ line, col }));
}

async function run(problem: Problem, settings: Settings, job: Job, emit: Emit): Promise<void> {
  const { program } = problem;
  emit({ type: 'cutpoints', points: cutpointMarks(problem, settings) });
  const rows = new RowNumbers();
  const result = await constraintEngine.run(problem, settings, {
    constraints: {
      // The mode shows the paper's template search live, step by step: the observed bounds come
      // after its first attempt, where `farkas verify` tries them first (docs/ui.md).
      observedBounds: 'second',
      ...(job.options.pins && job.options.pins.length > 0 ? { knownInvariants: knownInvariants(job.options.pins) } : {}),
      onProgress: (e) => emit({ type: 'search', event: stepSearchEvent(e, rows) }),
    },
  });
  emit({ type: 'result', data: verifyData(program, job.file, result) });
  emit({ type: 'witness', witness: await witness(program, job, result) });
  await secondOpinions(problem, settings, result, emit);
}

/** Pins by line (several at one line, e.g. at different columns, are conjoined). */
export function knownInvariants(pins: readonly { readonly line: number; readonly formula: Formula }[]): Map<number, Formula> {
  const byLine = new Map<number, Formula>();
  for (const p of pins) byLine.set(p.line, F.and(byLine.get(p.line) ?? F.TRUE, p.formula));
  return byLine;
}

export function verifyData(program: Program, file: string, r: VerifyResult): VerifyData {
  // Not the last step: after an unsat step the observed bounds (Houdini) may prove the program.
  const found = r.stats.find((s) => s.result === 'sat');
  const cex = r.counterexample;
  return {
    verdict: r.verdict,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    certified: r.certified,
    function: r.function,
    schedule: r.schedule,
    invariants: r.invariants.map((i) => ({ line: i.line, col: i.col, expression: i.expression, function: i.function, formula: i.formula })),
    ...(r.pinned ? { pinned: r.pinned } : {}),
    ...(found ? { template: found.template, widths: widthsText(found.widths) } : {}),
    ...(r.houdini?.proved ? { byObservedBounds: true } : {}),
    ...(cex
      ? {
          counterexample: { inputs: [...[...cex.inputs].map(([k, v]) => `${k}=${v}`), ...(cex.nondet.length ? [`nondet ${cex.nondet.join(',')}`] : [])].join(', ') || '(no inputs)', line: cex.line },
          trace: recordTrace(program, { entry: r.function, inputs: cex.inputs, nondet: cex.nondet }),
        }
      : {}),
    json: verifyJson(file, r),
  };
}

/** The SV-COMP witness `W` writes: built and checked (correctness: z3 re-proves the program from the
 * witness text alone) by lib/witness, as `farkas verify --witness` does. */
async function witness(program: Program, job: Job, result: VerifyResult): Promise<WitnessOutcomeView> {
  try {
    return await witnessFor({ program, file: job.file, source: job.source, result });
  } catch (e) {
    return { kind: 'none', reason: `witness failed: ${(e as Error).message}` };
  }
}

/** The Engines pane's name of an engine: the constraint engine's row keeps its old label. */
function paneName(engine: string): string {
  return engine === CONSTRAINT_ENGINE ? 'constraint/SAT' : engine;
}

function doneRow(row: Pick<CrossCheckRow, 'engine' | 'verdict' | 'millis' | 'reason'>): EngineRow {
  return { name: paneName(row.engine), status: 'done', verdict: row.verdict, millis: row.millis, ...(row.reason ? { note: row.reason } : {}) };
}

/** The Engines pane: the shared cross-check (every registered engine; the constraint engine's answer
 * is the search's own, not run again) row by row as each engine ends, then an independent re-check of
 * the constraint engine's invariants by the certificate checker. */
async function secondOpinions(problem: Problem, settings: Settings, result: EngineResult, emit: Emit): Promise<void> {
  // The rows in the registry's order, which is the cross-check's.
  const engines: readonly string[] = availableEngines();
  const rows: EngineRow[] = [
    ...engines.map((name): EngineRow => (name === CONSTRAINT_ENGINE ? doneRow({ engine: name, verdict: result.verdict, millis: result.millis, reason: result.reason }) : { name: paneName(name), status: 'pending' })),
    { name: 'certificate check', status: 'pending' },
  ];
  const update = (i: number, row: EngineRow) => {
    rows[i] = row;
    emit({ type: 'engines', rows: [...rows] });
  };
  emit({ type: 'engines', rows: [...rows] });
  let engineStarted = Date.now();
  await crossCheck(problem, settings, {
    results: new Map([[CONSTRAINT_ENGINE, result]]),
    engineTimeLimitMs: UI_CROSS_CHECK_ENGINE_TIMEOUT_MS,
    // The pane shows verdicts only: no z3 queries to compare invariants.
    compareInvariants: false,
    onEngineStarted: (engine) => {
      engineStarted = Date.now();
      update(engines.indexOf(engine), { name: paneName(engine), status: 'running' });
    },
    onEngineFinished: (row) => update(engines.indexOf(row.engine), doneRow(row)),
    onEngineFailed: (engine, e) => update(engines.indexOf(engine), { name: paneName(engine), status: 'error', millis: Date.now() - engineStarted, note: (e as Error).message }),
  });
  const last = rows.length - 1;
  if (result.verdict !== 'safe' || result.summaries) {
    update(last, { name: 'certificate check', status: 'done', verdict: '-', note: result.summaries ? 'summaries: checked inside verify' : 'no invariants to check' });
    return;
  }
  update(last, { name: 'certificate check', status: 'running' });
  const started = Date.now();
  try {
    const check = await recheckCertificate(problem, result);
    update(last, { name: 'certificate check', status: 'done', verdict: check.valid ? 'valid' : 'rejected', millis: Date.now() - started, ...(check.reason ? { note: check.reason } : {}) });
  } catch (e) {
    update(last, { name: 'certificate check', status: 'error', millis: Date.now() - started, note: (e as Error).message });
  }
}

/** The invariant shown for a selection: the selected cut-point's, else the first one. */
function invariantAt(data: VerifyData, selected: SourceMark | null) {
  return selected ? data.invariants.find((i) => i.line === selected.line && i.col === selected.col) ?? data.invariants.find((i) => i.line === selected.line) : undefined;
}

function pinnedText(shown: { line: number; col: number; expression: string }, pins: readonly Pin[]): string | null {
  const pin = pins.find((p) => p.line === shown.line && p.col === shown.col);
  if (!pin) return pins.length > 0 ? `${pins.length} pinned elsewhere` : null;
  return pin.expression === shown.expression ? 'pinned (this one)' : `pinned: ${pin.expression}`;
}

function foundBy(data: VerifyData): string {
  if (data.template) return `template ${data.template}, widths ${data.widths ?? '-'}`;
  return data.byObservedBounds ? 'found by the observed bounds (Houdini), not a template step' : 'found by no template step';
}

function InvariantPane({ data, selected, traceIndex, pins, width, height, color, scroll, onScrollRange }: ResultProps<VerifyData>) {
  if (data.trace && data.trace.length > 0) {
    return <TraceView title={`counterexample: ${data.counterexample!.inputs}; fails at line ${data.counterexample!.line}`} rows={data.trace} index={traceIndex} width={width} height={height} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />;
  }
  const verdictColor = data.verdict === 'safe' ? 'green' : data.verdict === 'unsafe' ? 'red' : 'yellow';
  const at = invariantAt(data, selected);
  const shown = at ?? data.invariants[0];
  const pinned = shown ? pinnedText(shown, pins) : null;
  // The invariant right after the verdict, wrapped, so a short pane loses the details first.
  const lines: ResultLine[] = [{ text: `${data.verdict}${data.verdict === 'safe' ? (data.certified ? ' (certified by z3)' : '') : data.reason ? `: ${data.reason}` : ''}`, bold: true, color: verdictColor }];
  if (shown) {
    lines.push({ text: `line ${shown.line}:${shown.col}${at ? '' : ' (first cut-point)'}: ${shown.expression}`, bold: true });
    lines.push({ text: `${foundBy(data)}${data.certified ? '' : '; not certified (candidate)'}` });
    if (pinned) lines.push({ text: pinned, color: 'magenta' });
    if (data.pinned && data.pinned.length > 0) lines.push({ text: `search used pin${data.pinned.length > 1 ? 's' : ''}: ${data.pinned.map((p) => `line ${p.line}: ${p.expression}`).join('; ')}`, color: 'magenta' });
  } else {
    lines.push({ text: 'no invariants' });
  }
  const hint: ResultLine = { text: `${data.invariants.length} cut-points: ↑/↓ to select`, dim: true };
  const withHint = data.invariants.length > 1 && rowCount([...lines, hint], width) <= height;
  return <LineList lines={withHint ? [...lines, hint] : lines} width={width} height={height} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />;
}

export const verifyMode: Mode<VerifyData> = {
  key: 'v',
  id: 'verify',
  name: 'verify',
  run,
  Result: InvariantPane,
  marks: (d) => d.invariants.map((i) => ({ line: i.line, col: i.col })),
  trace: (d) => d.trace,
  pinnable: (d, selected) => {
    const shown = invariantAt(d, selected) ?? d.invariants[0];
    return shown ? { line: shown.line, col: shown.col, expression: shown.expression, ...(shown.formula ? { formula: shown.formula } : {}) } : undefined;
  },
  exportJson: (d) => d.json,
};
