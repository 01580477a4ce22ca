// The farkas terminal UI: source, result (invariants / preconditions / trace), search progress and
// engines panes. Every analysis runs in the analysis worker (runner.ts); this file only shows state.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { Box, Text, useApp, useInput, useStdout, type Key } from 'ink';
import { parseInput, isHornClauses, type FrontendOptions, InputError } from '../../lib/index.js';
import type { Mode } from './modes/types.js';
import type { ScrollRange } from './modes/line-list.js';
import type { AnalysisRunner } from './runner.js';
import { effectiveFocus, initialState, jobOptions, reduce, selectableMarks, selectedIndex, templateLabel, TEMPLATE_FIELDS, TRACE_PAGE, type Move, type Prompt, type UiState } from './state.js';
import { assertionOn, insertAssertion, outline, replaceAssertion } from './source-edit.js';
import { maxSourceScroll, maxSourceTop, SourcePane, sourceLines, sourceRows, sourceTop } from './panes/source-pane.js';
import { SearchPane } from './panes/search-pane.js';
import { EnginesPane } from './panes/engines-pane.js';
import { Frame } from './panes/frame.js';
import { Help } from './panes/help.js';
import { wrapText } from './wrap.js';
import { enterAlternateScreen } from './alternate-screen.js';
import { saveEdited } from './save-edited.js';
import { keyHint } from './footer.js';

/** Columns `<`/`>` scroll the source pane by. */
const SCROLL_STEP = 10;

export interface AppProps {
  readonly file: string;
  readonly source: string;
  readonly modes: readonly Mode[];
  readonly runner: AnalysisRunner;
  readonly initialMode?: string;
  readonly cutset?: 'paths' | 'headers';
  readonly schedule?: string;
  readonly functionName?: string;
  readonly color?: boolean;
  /** Terminal size; default: the output stream's, else 80×24. */
  readonly columns?: number;
  readonly rows?: number;
  /** Where `x` writes; default the working directory. */
  readonly exportDir?: string;
  /** The data model and property every job lowers the program with (`--data-model`, `--property`). */
  readonly frontend?: FrontendOptions;
}

/** Parses for the outline; a program that does not parse still opens (the worker reports the error). */
function outlineOf(source: string, file: string, frontend: FrontendOptions = {}) {
  try {
    return outline(parseInput(source, file, frontend));
  } catch {
    return { loops: [], asserts: [] };
  }
}

function jsonText(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v instanceof Map ? Object.fromEntries(v) : v), 2) + '\n';
}

export function App(props: AppProps) {
  const { modes, runner } = props;
  const color = props.color ?? true;
  const { exit } = useApp();
  const { stdout } = useStdout();
  const columns = props.columns ?? (stdout.columns || 80);
  const rows = props.rows ?? (stdout.rows || 24);
  // The alternate screen is entered before ink draws the first frame (a state initialiser runs in
  // the first render; an effect would run after the frame is drawn, leaving it in the scrollback)
  // and left at unmount, when layout effects are cleaned up (synchronously, unlike passive ones):
  // after ink has drawn its last frame.
  const [leaveScreen] = useState(() => enterAlternateScreen(stdout));
  useLayoutEffect(() => () => leaveScreen?.(), [leaveScreen]);
  const [state, dispatch] = useReducer(reduce, undefined, () =>
    initialState({
      file: props.file,
      source: props.source,
      ...outlineOf(props.source, props.file, props.frontend),
      mode: props.initialMode ?? modes[0]!.id,
      ...(props.cutset ? { cutset: props.cutset } : {}),
      ...(props.schedule ? { schedule: props.schedule } : {}),
      ...(props.functionName !== undefined ? { functionName: props.functionName } : {}),
    }),
  );
  const mode = modes.find((m) => m.id === state.mode) ?? modes[0]!;
  const data = state.result && state.result.mode === mode.id ? state.result.data : null;
  const marks = selectableMarks(state, data !== null && mode.marks ? mode.marks(data) : []);
  const selected = marks.length > 0 ? marks[selectedIndex(marks, state.selected)]! : null;
  const trace = data !== null && mode.trace ? mode.trace(data) : undefined;
  const hasTrace = trace !== undefined && trace.length > 0;
  const focus = effectiveFocus(state.focus, hasTrace);
  // How far the result pane's list scrolls, and its page: told by the list when it is drawn (it
  // wraps the lines; a layout effect, so it is known before the next key); nothing to scroll
  // without a result.
  const resultScroll = useRef<ScrollRange>({ max: 0, page: 1 });
  if (data === null) resultScroll.current = { max: 0, page: 1 };

  // One job per runToken: a new token (re-run, mode, template, source) cancels the running job.
  useEffect(() => {
    dispatch({ type: 'job-started', at: Date.now() });
    const job = runner.start({ mode: state.mode, file: state.file, source: state.source, ...(props.frontend ? { frontend: props.frontend } : {}), options: jobOptions(state) }, (message) => dispatch({ type: 'message', message, at: Date.now() }));
    return () => job.cancel();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state.runToken]);

  const ticking = state.running || state.engines.some((e) => e.status === 'running');
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => dispatch({ type: 'tick', at: Date.now() }), 150);
    return () => clearInterval(timer);
  }, [ticking]);

  const submitPrompt = (s: UiState) => {
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
      dispatch({ type: 'source', file, source, ...outlineOf(source, file) });
      return;
    }
    const next = p.kind === 'add-assert' ? insertAssertion(s.source, p.line, p.value) : replaceAssertion(s.source, p.line, p.value);
    try {
      const program = parseInput(next, s.file, props.frontend ?? {});
      dispatch({ type: 'set', patch: { prompt: null } });
      dispatch({ type: 'source', file: s.file, source: next, ...outline(program), edited: true });
      dispatch({ type: 'set', patch: { status: p.kind === 'add-assert' ? `assertion added after line ${p.line}` : `assertion on line ${p.line} changed` } });
    } catch (e) {
      // Keep the prompt open with the text so the user can fix it; the error names line and column.
      dispatch({ type: 'set', patch: { prompt: p, status: e instanceof InputError ? e.message : String(e) } });
    }
  };

  /** Writes FILE.<suffix> into the export directory and says so on the status line. */
  const exportFile = (suffix: string, text: string, what = '') => {
    const path = join(props.exportDir ?? '.', `${basename(state.file).replace(/\.[ci]$/, '')}.${suffix}`);
    try {
      writeFileSync(path, text);
      dispatch({ type: 'set', patch: { status: `exported ${path}${what ? ` (${what})` : ''}` } });
    } catch (e) {
      dispatch({ type: 'set', patch: { status: `cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})` } });
    }
  };

  /** `S`: the edited program, beside the file it came from, under a new name. */
  const saveProgram = () => {
    if (state.source === state.savedSource) return dispatch({ type: 'set', patch: { status: 'nothing to save: the program is as read (edit it with a or e)' } });
    try {
      dispatch({ type: 'saved', source: state.source, path: saveEdited(state.file, state.source) });
    } catch (e) {
      dispatch({ type: 'set', patch: { status: `cannot save next to ${state.file} (${(e as NodeJS.ErrnoException).code ?? 'error'})` } });
    }
  };

  /** PgUp/PgDn, H/G (Home/End): the focused pane by a page, or to its first or last line (step). */
  const move = (to: Move) => {
    const lineCount = sourceLines(state.source).length;
    const focusLine = (trace && trace.length > 0 ? trace[Math.min(state.traceIndex, trace.length - 1)]!.line : null) ?? selected?.line ?? 1;
    const sizes = {
      trace: { max: Math.max(0, (trace?.length ?? 1) - 1), page: TRACE_PAGE },
      result: resultScroll.current,
      source: { max: maxSourceTop(lineCount, middle), page: Math.max(1, sourceRows(middle) - 1) },
    }[focus];
    dispatch({ type: 'move', move: to, ...sizes, sourceTop: sourceTop(lineCount, middle, focusLine, state.sourceTop), hasTrace });
  };

  /** Keys while a prompt is open (`prompt`: its text so far) edit it. */
  const typeIntoPrompt = (prompt: Prompt, input: string, key: Key) => {
    if (key.escape) dispatch({ type: 'set', patch: { prompt: null, status: '' } });
    else if (key.return) submitPrompt({ ...state, prompt });
    else if (key.backspace || key.delete) dispatch({ type: 'prompt-erase', count: Math.max(1, input.length) });
    else if (input && !key.ctrl && !key.meta) {
      // A pasted or fast-typed chunk is edited character by character: backspaces erase, a line
      // break submits (what follows it is dropped), other control characters never enter.
      let value = prompt.value;
      for (const ch of input) {
        if (ch === '\r' || ch === '\n') return submitPrompt({ ...state, prompt: { ...prompt, value } });
        if (ch === '\x7f' || ch === '\b') {
          value = value.slice(0, -1);
          dispatch({ type: 'prompt-erase', count: 1 });
        } else if (ch >= ' ') {
          value += ch;
          dispatch({ type: 'prompt-type', text: ch });
        }
      }
    }
  };

  /** Opens a prompt; returned, so that the rest of a typed chunk goes into it (see onKey). */
  const openPrompt = (prompt: Prompt, status = ''): Prompt => {
    dispatch({ type: 'set', patch: { prompt, status } });
    return prompt;
  };

  const onKey = (input: string, key: Key) => {
    if (state.prompt) return typeIntoPrompt(state.prompt, input, key);
    if (input.length > 1 && !key.ctrl && !key.meta) {
      // Keys typed faster than a render arrive as one chunk ("nnn", "ex > 0"): each character is a
      // command on the current view (the reducer applies them in order) until one opens a prompt,
      // whose text the rest of the chunk is: typed text never runs as commands.
      const chars = [...input];
      for (const [i, ch] of chars.entries()) {
        const opened = onCommand(ch, key);
        if (opened) return typeIntoPrompt(opened, chars.slice(i + 1).join(''), key);
      }
      return;
    }
    onCommand(input, key);
  };

  /** One key outside a prompt; returns the prompt it opened, if any. */
  const onCommand = (input: string, key: Key): Prompt | void => {
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
        return saveProgram();
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
        return openPrompt({ kind: 'add-assert', line: selected?.line ?? 1, value: '' });
      case 'e': {
        const line = selected?.line ?? 1;
        const found = assertionOn(state.source, line);
        if (found) return openPrompt({ kind: 'edit-assert', line, value: found.expr });
        // Still a prompt: the assertion the user goes on to type must not run as key commands.
        return openPrompt({ kind: 'add-assert', line, value: '' }, `no assertion on line ${line}: a new one goes after it (esc cancels)`);
      }
      case 'o':
        return openPrompt({ kind: 'open', value: '' });
      case 'x':
        if (data === null) return dispatch({ type: 'set', patch: { status: 'nothing to export yet' } });
        return exportFile(`${mode.id}.json`, jsonText(mode.exportJson(data)));
      case 'W': {
        if (mode.id !== 'verify') return dispatch({ type: 'set', patch: { status: 'witnesses come from verify: press v first' } });
        const w = state.witness;
        if (!w) return dispatch({ type: 'set', patch: { status: data === null ? 'nothing to export yet' : 'the witness is still being built' } });
        if (w.kind === 'none') return dispatch({ type: 'set', patch: { status: `no witness: ${w.reason}` } });
        return exportFile('witness.yml', w.text, `${w.kind} witness, ${w.items} ${w.kind === 'correctness' ? 'invariant(s)' : 'waypoint(s)'}`);
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
  };
  // ink keeps the input handler of an earlier render; the ref always reaches this render's state.
  const latest = useRef(onKey);
  latest.current = onKey;
  useInput((input, key) => latest.current(input, key));

  const prompt = state.prompt;
  const promptLabel = prompt?.kind === 'open' ? 'open file: ' : prompt?.kind === 'add-assert' ? `assert after line ${prompt.line}: ` : prompt ? `assert on line ${prompt.line}: ` : '';
  // The keys of the focused pane and the mode first; `?` lists every key.
  const hint = keyHint({ modes, mode: mode.id, focus, columns });
  const footer = prompt ? `${promptLabel}${prompt.value}_${state.status ? `   ${state.status}` : ''}` : state.status || hint;
  // A long message (a parse error beside the prompt, an export path) wraps onto up to three rows,
  // taken from the Search pane.
  const footerRows = wrapText(footer, columns);
  const shownFooter = footerRows.length <= 3 ? footerRows : [...footerRows.slice(0, 2), `${footerRows[2]!.slice(0, Math.max(0, columns - 1))}…`];
  // Layout: header, [source | result + engines], search, footer; fits 80×24 and grows with the terminal.
  const searchHeight = Math.max(4, Math.max(6, Math.min(10, Math.floor(rows / 3))) - (shownFooter.length - 1));
  const middle = Math.max(6, rows - 1 - shownFooter.length - searchHeight);
  const sourceWidth = Math.max(30, Math.floor(columns * 0.5));
  const rightWidth = columns - sourceWidth;
  const enginesHeight = Math.min(Math.max(3, state.engines.length + 2), Math.floor(middle / 2));
  const resultHeight = middle - enginesHeight;
  const field = state.template ? ` [${TEMPLATE_FIELDS[state.templateField]}]` : '';
  // The file's directory goes first when the line is too long (the Source pane's title has the path).
  const headerFor = (file: string) => `farkas  ${file}  mode ${mode.id}${mode.id === 'wp' ? ` (${state.strategy})` : mode.id === 'sp' ? ` (${state.spAt === null ? 'exit' : `line ${state.spAt}`})` : ''}  cut-set ${isHornClauses(file, state.source) ? 'headers (Horn clauses: the predicates)' : state.cutset}  template ${templateLabel(state)}${field}`;
  const header = headerFor(state.file).length <= columns ? headerFor(state.file) : headerFor(basename(state.file));
  const Result = mode.Result;
  return (
    <Box flexDirection="column" width={columns} height={rows}>
      <Text wrap="truncate" bold {...(color ? { color: 'cyan' } : {})}>{header}</Text>
      {state.help ? (
        <Help modes={modes} height={rows - 2} width={columns} />
      ) : (
        <>
          <Box height={middle}>
            <SourcePane active={focus === 'source'} top={state.sourceTop} file={state.file} source={state.source} cutpoints={state.cutpoints.length > 0 ? state.cutpoints : data !== null && mode.marks ? mode.marks(data) : []} asserts={state.asserts} loops={state.loops} pinned={state.pins} selectedLine={selected?.line ?? null} scroll={state.sourceScroll} traceLine={trace && trace.length > 0 ? trace[Math.min(state.traceIndex, trace.length - 1)]!.line : null} width={sourceWidth} height={middle} color={color} />
            <Box flexDirection="column" width={rightWidth}>
              <Frame title={mode.id === 'verify' ? (trace ? 'Counterexample' : 'Invariant') : mode.name} width={rightWidth} height={resultHeight} color={color} active={focus !== 'source'}>
                {data !== null ? (
                  <Result data={data} selected={selected} traceIndex={state.traceIndex} pins={state.pins} width={rightWidth - 4} height={resultHeight - 2} color={color} scroll={state.resultScroll} onScrollRange={(range) => {
                    resultScroll.current = range;
                  }} />
                ) : (
                  <Text wrap="truncate">{state.running ? 'searching…' : state.error ? 'no result' : ''}</Text>
                )}
              </Frame>
              <EnginesPane rows={state.engines} clock={Date.now()} width={rightWidth} height={enginesHeight} color={color} />
            </Box>
          </Box>
          <SearchPane rows={state.rows} running={state.running} phase={state.phase} elapsedMillis={state.elapsedMillis} bar={state.bar} error={state.error} width={columns} height={searchHeight} color={color} />
        </>
      )}
      {shownFooter.map((row, i) => (
        <Text key={i} wrap="truncate" {...(color && state.status && !prompt ? { color: 'yellow' } : {})}>{row}</Text>
      ))}
    </Box>
  );
}
