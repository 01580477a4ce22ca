// The farkas terminal UI: source, result (invariants / preconditions / trace), search progress and
// engines panes. Every analysis runs in the analysis worker (runner.ts); this file only shows state.
import { basename } from 'node:path';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { Box, Text, useApp, useInput, useStdout, type Key } from 'ink';
import { parseInput, isHornClauses, type FrontendOptions } from '../../lib/index.js';
import type { Mode } from './modes/types.js';
import type { ScrollRange } from './modes/line-list.js';
import type { AnalysisRunner } from './runner.js';
import { onKey } from './commands.js';
import { effectiveFocus, initialState, jobOptions, reduce, selectableMarks, selectedIndex, templateLabel, TEMPLATE_FIELDS, TRACE_PAGE, type Move } from './state.js';
import { outline } from './source-edit.js';
import { maxSourceTop, SourcePane, sourceLines, sourceRows, sourceTop } from './panes/source-pane.js';
import { SearchPane } from './panes/search-pane.js';
import { EnginesPane } from './panes/engines-pane.js';
import { Frame } from './panes/frame.js';
import { Help } from './panes/help.js';
import { wrapText } from './wrap.js';
import { enterAlternateScreen } from './alternate-screen.js';
import { keyHint } from './footer.js';

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

  // ink keeps the input handler of an earlier render; the ref always reaches this render's state
  // (set below, once the layout is known).
  const latest = useRef<(input: string, key: Key) => void>(() => undefined);
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
  latest.current = (input, key) => onKey({
    state, dispatch, modes, mode, data, marks, selected, trace, hasTrace, sourceWidth, exit, move,
    ...(props.frontend ? { frontend: props.frontend } : {}),
    ...(props.exportDir !== undefined ? { exportDir: props.exportDir } : {}),
    outlineOf: (source, file) => outlineOf(source, file),
  }, input, key);
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
