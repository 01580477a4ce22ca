// The UI's state and how worker messages and keys change it (a reducer, so it is testable alone).
import type { Schedule, CutsetStrategy, Formula } from '../../lib/index.js';
import type { EngineRow, JobOptions, SearchEvent, SourceMark, WitnessOutcomeView, WorkerMessage } from './protocol.js';

export interface SearchRow {
  readonly index: number;
  readonly template: string;
  readonly widths: string;
  readonly purpose?: string;
  readonly variables?: number;
  readonly clauses?: number;
  readonly satMillis?: number;
  readonly result?: string;
  readonly reason?: string;
}

/** The template the user composes with t/+/- (one schedule step), or null for the named schedule. */
export interface TemplateChoice {
  readonly disjuncts: number;
  readonly conjuncts: number;
  readonly coefficient: number;
  readonly constant: number;
  readonly multiplier: number;
}

export const TEMPLATE_FIELDS = ['disjuncts', 'conjuncts', 'coefficient', 'constant', 'multiplier'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
/** Allowed ranges, as in templates/*.yaml (lib/constraints/schedule.ts). */
const FIELD_RANGE: Record<TemplateField, readonly [number, number]> = {
  disjuncts: [1, 8],
  conjuncts: [1, 12],
  coefficient: [1, 32],
  constant: [1, 32],
  multiplier: [1, 32],
};
/** The paper's first step: where composing a template starts. */
export const FIRST_TEMPLATE: TemplateChoice = { disjuncts: 1, conjuncts: 2, coefficient: 3, constant: 6, multiplier: 1 };

/** An invariant the user pinned at a cut-point: kept (and shown beside the current one) across re-runs
 * of the same file. */
export interface Pin {
  readonly line: number;
  readonly col: number;
  readonly expression: string;
  /** The invariant itself, handed to later verify runs (VerifyOptions.knownInvariants). */
  readonly formula?: Formula;
}

/** The pane PgUp/PgDn and H/G act on (Tab moves it): the result pane's trace (its steps) when it shows
 * one, the result pane's lines, or the source pane. `trace` falls back to `result` without a trace. */
export const FOCUS_ORDER = ['trace', 'result', 'source'] as const;
export type Focus = (typeof FOCUS_ORDER)[number];

/** A page move of the focused pane. */
export type Move = 'page-up' | 'page-down' | 'first' | 'last';

/** Steps PgUp/PgDn move a trace by. */
export const TRACE_PAGE = 10;

export type Prompt = { readonly kind: 'add-assert'; readonly line: number; readonly value: string } | { readonly kind: 'edit-assert'; readonly line: number; readonly value: string } | { readonly kind: 'open'; readonly value: string };

export interface UiState {
  readonly file: string;
  readonly source: string;
  readonly loops: readonly SourceMark[];
  readonly asserts: readonly SourceMark[];
  readonly mode: string;
  readonly cutset: CutsetStrategy;
  readonly scheduleName: string;
  readonly template: TemplateChoice | null;
  readonly templateField: number;
  readonly strategy: 'neighbourhood' | 'binary';
  /** sp: the cut-point line (`--at`), or null for the exit. */
  readonly spAt: number | null;
  readonly pins: readonly Pin[];
  readonly functionName?: string;
  /** Bumped to start a new job (the current one is cancelled). */
  readonly runToken: number;
  readonly running: boolean;
  readonly startedAt: number;
  readonly elapsedMillis: number;
  readonly phase: string;
  readonly rows: readonly SearchRow[];
  readonly bar: { readonly label: string; readonly fraction: number } | null;
  readonly cutpoints: readonly SourceMark[];
  readonly result: { readonly mode: string; readonly data: unknown } | null;
  /** The SV-COMP witness of the current verify result, once the worker has built (and checked) it. */
  readonly witness: WitnessOutcomeView | null;
  readonly error: string | null;
  readonly engines: readonly EngineRow[];
  /** The selected cut-point or assertion (null: the first), kept by position across re-runs; while
   * its line is not among the selectable marks (a re-run that has not reported its cut-points yet),
   * the first mark stands in. */
  readonly selected: SourceMark | null;
  readonly traceIndex: number;
  /** Columns of the source pane scrolled off to the left (`<`/`>`). */
  readonly sourceScroll: number;
  /** The source pane's first line (0-based) once scrolled with the keys; null: it follows the
   * selection or the counterexample step. */
  readonly sourceTop: number | null;
  /** The first line of the result pane's list shown. */
  readonly resultScroll: number;
  readonly focus: Focus;
  /** The program text as read from the file or last saved (`S` saves only an edited one). */
  readonly savedSource: string;
  readonly prompt: Prompt | null;
  readonly help: boolean;
  readonly status: string;
}

export function initialState(init: { file: string; source: string; loops: readonly SourceMark[]; asserts: readonly SourceMark[]; mode: string; cutset?: CutsetStrategy; schedule?: string; functionName?: string; strategy?: 'neighbourhood' | 'binary' }): UiState {
  return {
    file: init.file,
    source: init.source,
    loops: init.loops,
    asserts: init.asserts,
    mode: init.mode,
    cutset: init.cutset ?? 'paths',
    scheduleName: init.schedule ?? 'paper',
    template: null,
    templateField: 0,
    strategy: init.strategy ?? 'neighbourhood',
    spAt: null,
    pins: [],
    ...(init.functionName !== undefined ? { functionName: init.functionName } : {}),
    runToken: 1,
    running: false,
    startedAt: 0,
    elapsedMillis: 0,
    phase: '',
    rows: [],
    bar: null,
    cutpoints: [],
    result: null,
    witness: null,
    error: null,
    engines: [],
    selected: null,
    traceIndex: 0,
    sourceScroll: 0,
    sourceTop: null,
    resultScroll: 0,
    focus: 'trace',
    savedSource: init.source,
    prompt: null,
    help: false,
    status: '',
  };
}

export function scheduleOf(s: UiState): string | Schedule {
  const t = s.template;
  if (!t) return s.scheduleName;
  return {
    name: `custom ${t.disjuncts}x${t.conjuncts} ${t.coefficient}/${t.constant}/${t.multiplier}`,
    description: 'one step composed in the UI',
    steps: [{ shape: { disjuncts: t.disjuncts, conjuncts: t.conjuncts }, widths: { coefficient: t.coefficient, constant: t.constant, multiplier: t.multiplier } }],
  };
}

export function jobOptions(s: UiState): JobOptions {
  const pins = s.pins.flatMap((p) => (p.formula ? [{ line: p.line, formula: p.formula }] : []));
  return { cutset: s.cutset, schedule: scheduleOf(s), strategy: s.strategy, ...(s.spAt !== null ? { atLine: s.spAt } : {}), ...(s.functionName !== undefined ? { function: s.functionName } : {}), ...(pins.length > 0 ? { pins } : {}) };
}

export function templateLabel(s: UiState): string {
  const t = s.template;
  return t ? `${t.disjuncts}x${t.conjuncts} ${t.coefficient}/${t.constant}/${t.multiplier}` : s.scheduleName;
}

export type Action =
  | { readonly type: 'job-started'; readonly at: number }
  | { readonly type: 'message'; readonly message: WorkerMessage; readonly at: number }
  | { readonly type: 'tick'; readonly at: number }
  | { readonly type: 'rerun'; readonly status?: string }
  | { readonly type: 'set'; readonly patch: Partial<UiState> }
  | { readonly type: 'mode'; readonly mode: string }
  | { readonly type: 'select'; readonly delta: number; readonly marks: readonly SourceMark[] }
  | { readonly type: 'trace'; readonly delta: number; readonly length: number }
  | { readonly type: 'scroll'; readonly delta: number; readonly max: number }
  | { readonly type: 'prompt-type'; readonly text: string }
  | { readonly type: 'prompt-erase'; readonly count: number }
  | { readonly type: 'pin'; readonly pin: Pin }
  | { readonly type: 'unpin'; readonly line: number }
  | { readonly type: 'template-field' }
  | { readonly type: 'template-adjust'; readonly delta: number }
  | { readonly type: 'focus-next'; readonly hasTrace: boolean }
  /** `max`: the last position (trace step, result line, source line); `page`: how far a page goes;
   * `sourceTop`: where the source pane shows it from now (it follows the selection until scrolled). */
  | { readonly type: 'move'; readonly move: Move; readonly max: number; readonly page: number; readonly sourceTop?: number; readonly hasTrace: boolean }
  /** `edited`: an a/e edit of the same file (kept unsaved until `S`); else the text of a file read. */
  | { readonly type: 'source'; readonly file: string; readonly source: string; readonly loops: readonly SourceMark[]; readonly asserts: readonly SourceMark[]; readonly edited?: boolean }
  | { readonly type: 'saved'; readonly source: string; readonly path: string };

function searchRows(rows: readonly SearchRow[], e: SearchEvent): readonly SearchRow[] {
  switch (e.kind) {
    case 'row-start':
      return [...rows.filter((r) => r.index !== e.index), { index: e.index, template: e.template, widths: e.widths, ...(e.purpose ? { purpose: e.purpose } : {}) }];
    case 'row-encoded':
      return rows.map((r) => (r.index === e.index ? { ...r, variables: e.variables, clauses: e.clauses } : r));
    case 'row-done':
      return rows.map((r) => (r.index === e.index ? { ...r, variables: e.variables, clauses: e.clauses, satMillis: e.satMillis, result: e.result, ...(e.reason ? { reason: e.reason } : {}) } : r));
    default:
      return rows;
  }
}

/** The search is over: no spinner, and no progress bar of a search that no longer runs. */
function searchEnded(s: UiState, at: number): UiState {
  return { ...s, running: false, elapsedMillis: at - s.startedAt, bar: null };
}

/** The job that ran these engines is over: the ones that had not answered never will. */
function endUnanswered(rows: readonly EngineRow[], status: 'cancelled' | 'error', note?: string): readonly EngineRow[] {
  return rows.map((r) => (r.status === 'pending' || r.status === 'running' ? { name: r.name, status, ...(note ? { note } : {}) } : r));
}

/** A pin is a known conjunct at its line's cut-points: on a line that is no cut-point (the cut-set or
 * the program changed) it makes every verify answer unknown. Such pins are dropped when the worker
 * reports the cut-points, and a verify run that was given them starts again without them. */
function dropPinsOffCutpoints(s: UiState): UiState {
  const stale = s.pins.filter((p) => !s.cutpoints.some((c) => c.line === p.line));
  if (stale.length === 0) return s;
  const lines = [...new Set(stale.map((p) => p.line))];
  const rerun = s.mode === 'verify';
  return {
    ...s,
    pins: s.pins.filter((p) => !stale.includes(p)),
    status: `unpinned line ${lines.join(', ')}: no cut-point there with cut-set ${s.cutset}${rerun ? '; verify re-runs' : ''}`,
    ...(rerun ? { runToken: s.runToken + 1 } : {}),
  };
}

function onMessage(s: UiState, m: WorkerMessage, at: number): UiState {
  switch (m.type) {
    case 'search': {
      const e = m.event;
      if (e.kind === 'phase') return { ...s, phase: e.text };
      if (e.kind === 'bar') return { ...s, bar: { label: e.label, fraction: Math.max(0, Math.min(1, e.fraction)) } };
      return { ...s, rows: searchRows(s.rows, e), ...(e.kind === 'row-start' ? { phase: e.purpose ?? `step ${e.index + 1}` } : {}) };
    }
    case 'cutpoints':
      return dropPinsOffCutpoints({ ...s, cutpoints: m.points });
    case 'result':
      // The search is over; the job may go on with second opinions (the Engines pane).
      return { ...searchEnded(s, at), result: { mode: s.mode, data: m.data }, phase: `done in ${((at - s.startedAt) / 1000).toFixed(1)} s`, traceIndex: 0 };
    case 'partial':
      // Shown (and steppable) while the search runs on; the step is kept if it is already being stepped.
      return { ...s, result: { mode: s.mode, data: m.data }, ...(s.result ? {} : { traceIndex: 0 }) };
    case 'engines':
      return { ...s, engines: m.rows };
    case 'witness':
      return { ...s, witness: m.witness };
    case 'error':
      return { ...searchEnded(s, at), error: m.message, phase: 'failed' };
    case 'done': {
      // After a crash (`error`, then `done`) engines may be left running: they will not answer.
      const engines = endUnanswered(s.engines, 'error', 'no answer: the analysis worker stopped');
      return { ...(s.running ? searchEnded(s, at) : s), engines };
    }
  }
}

export function reduce(s: UiState, a: Action): UiState {
  switch (a.type) {
    case 'job-started':
      // The previous job was cancelled: a verify run's engines that had not answered are shown so
      // (in another mode the pane keeps the last verify run's rows; a new verify run refills it).
      return { ...s, running: true, startedAt: a.at, elapsedMillis: 0, phase: 'starting', rows: [], bar: null, result: null, witness: null, error: null, traceIndex: 0, resultScroll: 0, ...(s.mode === 'verify' ? { engines: [], cutpoints: [] } : { engines: endUnanswered(s.engines, 'cancelled') }) };
    case 'message':
      return onMessage(s, a.message, a.at);
    case 'tick':
      return s.running ? { ...s, elapsedMillis: a.at - s.startedAt } : s;
    case 'rerun':
      return { ...s, runToken: s.runToken + 1, status: a.status ?? '' };
    case 'set':
      return { ...s, ...a.patch };
    case 'mode':
      return s.mode === a.mode ? s : { ...s, mode: a.mode, runToken: s.runToken + 1, status: '' };
    case 'select': {
      const count = a.marks.length;
      // The source pane follows the selection again.
      return count === 0 ? s : { ...s, selected: a.marks[(selectedIndex(a.marks, s.selected) + a.delta + count) % count]!, sourceTop: null };
    }
    case 'trace':
      return a.length === 0 ? s : { ...s, traceIndex: Math.max(0, Math.min(a.length - 1, s.traceIndex + a.delta)), sourceTop: null };
    case 'focus-next':
      return { ...s, focus: nextFocus(effectiveFocus(s.focus, a.hasTrace), a.hasTrace) };
    case 'move':
      return moved(s, a);
    case 'saved':
      return { ...s, savedSource: a.source, status: `saved ${a.path}` };
    case 'scroll':
      return { ...s, sourceScroll: Math.max(0, Math.min(a.max, s.sourceScroll + a.delta)) };
    case 'prompt-type':
      return s.prompt ? { ...s, prompt: { ...s.prompt, value: s.prompt.value + a.text } } : s;
    case 'prompt-erase':
      return s.prompt ? { ...s, prompt: { ...s.prompt, value: s.prompt.value.slice(0, Math.max(0, s.prompt.value.length - a.count)) } } : s;
    case 'pin': {
      const at = (p: Pin) => p.line === a.pin.line && p.col === a.pin.col;
      const old = s.pins.find(at);
      // Pinning the same invariant again unpins it; a different one at the same cut-point replaces it.
      if (old && old.expression === a.pin.expression) return { ...s, pins: s.pins.filter((p) => !at(p)), status: `unpinned line ${a.pin.line}` };
      return { ...s, pins: [...s.pins.filter((p) => !at(p)), a.pin].sort((x, y) => x.line - y.line || x.col - y.col), status: `pinned line ${a.pin.line}: ${a.pin.expression}${a.pin.formula ? ' (a known conjunct of the next verify runs)' : ''}` };
    }
    case 'unpin':
      return { ...s, pins: s.pins.filter((p) => p.line !== a.line), status: `unpinned line ${a.line}` };
    case 'template-field':
      return s.template ? { ...s, templateField: (s.templateField + 1) % TEMPLATE_FIELDS.length } : { ...s, template: FIRST_TEMPLATE, templateField: 0 };
    case 'template-adjust': {
      const t = s.template ?? FIRST_TEMPLATE;
      const field = TEMPLATE_FIELDS[s.templateField]!;
      const [lo, hi] = FIELD_RANGE[field];
      const value = Math.max(lo, Math.min(hi, t[field] + a.delta));
      if (value === t[field] && s.template) return { ...s, status: `${field} stays ${value} (allowed ${lo}..${hi})` };
      return { ...s, template: { ...t, [field]: value }, runToken: s.runToken + 1, status: '' };
    }
    case 'source':
      // Pins, the sp line and the selection belong to a file: another file starts without them.
      return { ...s, ...(a.file !== s.file ? { pins: [], spAt: null, selected: null } : {}), ...(a.edited ? {} : { savedSource: a.source }), file: a.file, source: a.source, loops: a.loops, asserts: a.asserts, sourceScroll: 0, sourceTop: null, cutpoints: [], engines: [], runToken: s.runToken + 1 };
  }
}

/** The pane the keys act on: the trace only while there is one. */
export function effectiveFocus(focus: Focus, hasTrace: boolean): Focus {
  return focus === 'trace' && !hasTrace ? 'result' : focus;
}

function nextFocus(from: Focus, hasTrace: boolean): Focus {
  const order = FOCUS_ORDER.filter((f) => hasTrace || f !== 'trace');
  return order[(order.indexOf(from) + 1) % order.length]!;
}

/** `at` moved by `move` within 0..max. */
export function movedPosition(at: number, move: Move, page: number, max: number): number {
  const to = move === 'first' ? 0 : move === 'last' ? max : at + (move === 'page-down' ? page : -page);
  return Math.max(0, Math.min(max, to));
}

function moved(s: UiState, a: Extract<Action, { type: 'move' }>): UiState {
  switch (effectiveFocus(s.focus, a.hasTrace)) {
    case 'trace':
      return { ...s, traceIndex: movedPosition(Math.min(s.traceIndex, a.max), a.move, a.page, a.max), sourceTop: null };
    case 'result':
      return { ...s, resultScroll: movedPosition(Math.min(s.resultScroll, a.max), a.move, a.page, a.max) };
    case 'source':
      return { ...s, sourceTop: movedPosition(s.sourceTop ?? a.sourceTop ?? 0, a.move, a.page, a.max) };
  }
}

/** The selectable source positions: cut-points (from the worker or the result), assertions, and the
 * pins (so that a pin can be selected, and unpinned, whatever the current result). */
export function selectableMarks(s: UiState, resultMarks: readonly SourceMark[]): SourceMark[] {
  const all = [...s.cutpoints, ...resultMarks, ...s.asserts, ...s.pins.map((p) => ({ line: p.line, col: p.col }))];
  const seen = new Set<string>();
  return all
    .filter((m) => (seen.has(`${m.line}:${m.col}`) ? false : (seen.add(`${m.line}:${m.col}`), true)))
    .sort((a, b) => a.line - b.line || a.col - b.col);
}

/** Where the selection is among `marks`: its position, else a mark on its line, else the first. */
export function selectedIndex(marks: readonly SourceMark[], selected: SourceMark | null): number {
  if (!selected) return 0;
  const exact = marks.findIndex((m) => m.line === selected.line && m.col === selected.col);
  return exact >= 0 ? exact : Math.max(0, marks.findIndex((m) => m.line === selected.line));
}
