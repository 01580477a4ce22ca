// The UI's keys: what a key (or a chunk of keys typed faster than a render) does to the state, and
// the prompts' editing, opening, saving and exporting they lead to. App (app.tsx) hands each key here
// with the view it is drawn from.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Dispatch } from 'react';
import type { Key } from 'ink';
import { parseInput, InputError, type FrontendOptions } from '../../lib/index.js';
import type { Mode } from './modes/types.js';
import type { Action, Move, Prompt, UiState } from './state.js';
import type { SourceMark } from './protocol.js';
import type { TraceRow } from './trace.js';
import { assertionOn, insertAssertion, outline, replaceAssertion } from './source-edit.js';
import { maxSourceScroll } from './panes/source-pane.js';
import { saveEdited } from './save-edited.js';

/** Columns `<`/`>` scroll the source pane by. */
const SCROLL_STEP = 10;

/** What a key acts on: the state and the view drawn from it. */
export interface KeyContext {
  readonly state: UiState;
  readonly dispatch: Dispatch<Action>;
  readonly modes: readonly Mode[];
  readonly mode: Mode;
  readonly data: unknown;
  readonly marks: readonly SourceMark[];
  readonly selected: SourceMark | null;
  readonly trace: readonly TraceRow[] | undefined;
  readonly hasTrace: boolean;
  readonly sourceWidth: number;
  readonly frontend?: FrontendOptions;
  readonly exportDir?: string;
  readonly exit: () => void;
  /** PgUp/PgDn, H/G: the focused pane by a page, or to its first or last line. */
  readonly move: (to: Move) => void;
  /** The outline of a program text (loops and assertions), for a file opened with `o`. */
  readonly outlineOf: (source: string, file: string) => { loops: UiState['loops']; asserts: UiState['asserts'] };
}

function jsonText(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Map ? Object.fromEntries(v) : v), 2) + '\n';
}

function submitPrompt(ctx: KeyContext, s: UiState): void {
  const { dispatch, frontend } = ctx;
  const p = s.prompt!;
  if (p.kind === 'open') {
    const file = p.value.trim();
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch (e) {
      dispatch({ type: 'set', patch: { prompt: p, status: `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})` } });
      return;
    }
    dispatch({ type: 'set', patch: { prompt: null, status: `opened ${file}` } });
    dispatch({ type: 'source', file, source, ...ctx.outlineOf(source, file) });
    return;
  }
  const next = p.kind === 'add-assert' ? insertAssertion(s.source, p.line, p.value) : replaceAssertion(s.source, p.line, p.value);
  try {
    const program = parseInput(next, s.file, frontend ?? {});
    dispatch({ type: 'set', patch: { prompt: null } });
    dispatch({ type: 'source', file: s.file, source: next, ...outline(program), edited: true });
    dispatch({ type: 'set', patch: { status: p.kind === 'add-assert' ? `assertion added after line ${p.line}` : `assertion on line ${p.line} changed` } });
  } catch (e) {
    // Keep the prompt open with the text so the user can fix it; the error names line and column.
    dispatch({ type: 'set', patch: { prompt: p, status: e instanceof InputError ? e.message : String(e) } });
  }
}

/** Writes FILE.<suffix> into the export directory and says so on the status line. */
function exportFile(ctx: KeyContext, suffix: string, text: string, what = ''): void {
  const { state, dispatch, exportDir } = ctx;
  const path = join(exportDir ?? '.', `${basename(state.file).replace(/\.[ci]$/, '')}.${suffix}`);
  try {
    writeFileSync(path, text);
    dispatch({ type: 'set', patch: { status: `exported ${path}${what ? ` (${what})` : ''}` } });
  } catch (e) {
    dispatch({ type: 'set', patch: { status: `cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})` } });
  }
}

/** `S`: the edited program, beside the file it came from, under a new name. */
function saveProgram(ctx: KeyContext): void {
  const { state, dispatch } = ctx;
  if (state.source === state.savedSource) return dispatch({ type: 'set', patch: { status: 'nothing to save: the program is as read (edit it with a or e)' } });
  try {
    dispatch({ type: 'saved', source: state.source, path: saveEdited(state.file, state.source) });
  } catch (e) {
    dispatch({ type: 'set', patch: { status: `cannot save next to ${state.file} (${(e as NodeJS.ErrnoException).code ?? 'error'})` } });
  }
}

/** Keys while a prompt is open (`prompt`: its text so far) edit it. */
function typeIntoPrompt(ctx: KeyContext, prompt: Prompt, input: string, key: Key): void {
  const { state, dispatch } = ctx;
  if (key.escape) dispatch({ type: 'set', patch: { prompt: null, status: '' } });
  else if (key.return) submitPrompt(ctx, { ...state, prompt });
  else if (key.backspace || key.delete) dispatch({ type: 'prompt-erase', count: Math.max(1, input.length) });
  else if (input && !key.ctrl && !key.meta) {
    // A pasted or fast-typed chunk is edited character by character: backspaces erase, a line
    // break submits (what follows it is dropped), other control characters never enter.
    let value = prompt.value;
    for (const ch of input) {
      if (ch === '\r' || ch === '\n') return submitPrompt(ctx, { ...state, prompt: { ...prompt, value } });
      if (ch === '\x7f' || ch === '\b') {
        value = value.slice(0, -1);
        dispatch({ type: 'prompt-erase', count: 1 });
      } else if (ch >= ' ') {
        value += ch;
        dispatch({ type: 'prompt-type', text: ch });
      }
    }
  }
}

/** Opens a prompt; returned, so that the rest of a typed chunk goes into it (see onKey). */
function openPrompt(ctx: KeyContext, prompt: Prompt, status = ''): Prompt {
  ctx.dispatch({ type: 'set', patch: { prompt, status } });
  return prompt;
}

export function onKey(ctx: KeyContext, input: string, key: Key): void {
  const { state } = ctx;
  if (state.prompt) return typeIntoPrompt(ctx, state.prompt, input, key);
  if (input.length > 1 && !key.ctrl && !key.meta) {
    // Keys typed faster than a render arrive as one chunk ("nnn", "ex > 0"): each character is a
    // command on the current view (the reducer applies them in order) until one opens a prompt,
    // whose text the rest of the chunk is: typed text never runs as commands.
    const chars = [...input];
    for (const [i, ch] of chars.entries()) {
      const opened = onCommand(ctx, ch, key);
      if (opened) return typeIntoPrompt(ctx, opened, chars.slice(i + 1).join(''), key);
    }
    return;
  }
  onCommand(ctx, input, key);
}

/** One key outside a prompt; returns the prompt it opened, if any. */
function onCommand(ctx: KeyContext, input: string, key: Key): Prompt | void {
  const { state, dispatch, modes, mode, data, marks, selected, trace, hasTrace, exit, move, sourceWidth } = ctx;
  if (state.help) {
    if (key.escape || input === '?') dispatch({ type: 'set', patch: { help: false } });
    else if (input === 'q') exit();
    return;
  }
  const m = modes.find((x) => x.key === input);
  if (m) return dispatch({ type: 'mode', mode: m.id });
  if (key.tab) return dispatch({ type: 'focus-next', hasTrace });
  if (key.pageUp || key.pageDown || key.home || key.end) return move(key.pageUp ? 'page-up' : key.pageDown ? 'page-down' : key.home ? 'first' : 'last');
  if (key.upArrow || input === 'k') return dispatch({ type: 'select', delta: -1, marks });
  if (key.downArrow || input === 'j') return dispatch({ type: 'select', delta: 1, marks });
  switch (input) {
    case 'q':
      return exit();
    case '?':
      return dispatch({ type: 'set', patch: { help: true } });
    case 'n':
      return dispatch({ type: 'trace', delta: 1, length: trace?.length ?? 0 });
    case 'p':
      return dispatch({ type: 'trace', delta: -1, length: trace?.length ?? 0 });
    case '<':
    case '>':
      return dispatch({ type: 'scroll', delta: input === '>' ? SCROLL_STEP : -SCROLL_STEP, max: maxSourceScroll(state.source, sourceWidth) });
    case 'H':
      return move('first');
    case 'G':
      return move('last');
    case 'S':
      return saveProgram(ctx);
    case 'r':
      return dispatch({ type: 'rerun' });
    case 'c':
      return dispatch({ type: 'set', patch: { cutset: state.cutset === 'paths' ? 'headers' : 'paths', runToken: state.runToken + 1 } });
    case 'g':
      return dispatch({ type: 'set', patch: { strategy: state.strategy === 'binary' ? 'neighbourhood' : 'binary', ...(state.mode === 'wp' ? { runToken: state.runToken + 1 } : {}) } });
    case 't':
      return dispatch({ type: 'template-field' });
    case 'T':
      return dispatch({ type: 'set', patch: { template: null, runToken: state.runToken + 1 } });
    case '+':
    case '=':
      return dispatch({ type: 'template-adjust', delta: 1 });
    case '-':
      return dispatch({ type: 'template-adjust', delta: -1 });
    case 'a':
      return openPrompt(ctx, { kind: 'add-assert', line: selected?.line ?? 1, value: '' });
    case 'e': {
      const line = selected?.line ?? 1;
      const found = assertionOn(state.source, line);
      if (found) return openPrompt(ctx, { kind: 'edit-assert', line, value: found.expr });
      // Still a prompt: the assertion the user goes on to type must not run as key commands.
      return openPrompt(ctx, { kind: 'add-assert', line, value: '' }, `no assertion on line ${line}: a new one goes after it (esc cancels)`);
    }
    case 'o':
      return openPrompt(ctx, { kind: 'open', value: '' });
    case 'x':
      if (data === null) return dispatch({ type: 'set', patch: { status: 'nothing to export yet' } });
      return exportFile(ctx, `${mode.id}.json`, jsonText(mode.exportJson(data)));
    case 'W': {
      if (mode.id !== 'verify') return dispatch({ type: 'set', patch: { status: 'witnesses come from verify: press v first' } });
      const w = state.witness;
      if (!w) return dispatch({ type: 'set', patch: { status: data === null ? 'nothing to export yet' : 'the witness is still being built' } });
      if (w.kind === 'none') return dispatch({ type: 'set', patch: { status: `no witness: ${w.reason}` } });
      return exportFile(ctx, 'witness.yml', w.text, `${w.kind} witness, ${w.items} ${w.kind === 'correctness' ? 'invariant(s)' : 'waypoint(s)'}`);
    }
    case 'i': {
      const pin = data !== null && mode.pinnable ? mode.pinnable(data, selected) : undefined;
      const pinnedHere = selected !== null && state.pins.some((p) => p.line === selected.line);
      // On a pinned line `i` unpins, in any mode and whatever the answer, unless the result has an
      // invariant for that line (then it replaces the pin, or unpins it if it is the same).
      if (pinnedHere && pin?.line !== selected.line) return dispatch({ type: 'unpin', line: selected.line });
      if (!pin) return dispatch({ type: 'set', patch: { status: mode.pinnable ? 'no invariant to pin yet' : 'pinning takes an invariant: press v (verify) first' } });
      return dispatch({ type: 'pin', pin });
    }
    case 'l': {
      if (!selected || !state.cutpoints.some((c) => c.line === selected.line)) return dispatch({ type: 'set', patch: { status: 'select a cut-point (up/down) for sp at its line' } });
      const spAt = state.spAt === selected.line ? null : selected.line;
      return dispatch({ type: 'set', patch: { spAt, status: `sp ${spAt === null ? 'at the exit' : `at line ${spAt}`}`, ...(state.mode === 'sp' ? { runToken: state.runToken + 1 } : {}) } });
    }
  }
}
