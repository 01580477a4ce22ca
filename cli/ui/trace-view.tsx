// A counterexample, one step at a time (n/p): the statement, its line, and the values after it, each
// wrapped to the pane's width.
import type { TraceRow } from './trace.js';
import { LineList, rowCount, type ResultLine, type ScrollRange } from './modes/line-list.js';

export interface TraceViewProps {
  readonly title: string;
  readonly rows: readonly TraceRow[];
  readonly index: number;
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
  /** The first line shown, when the trace is the whole result pane (verify's counterexample). */
  readonly scroll?: number;
  readonly onScrollRange?: (range: ScrollRange) => void;
}

export function TraceView({ title, rows, index, width, height, color, scroll, onScrollRange }: TraceViewProps) {
  const at = Math.max(0, Math.min(index, rows.length - 1));
  const row = rows[at]!;
  const last = at === rows.length - 1;
  const state = row.state.map(([k, v]) => (row.changed.includes(k) ? `${k}=${v}*` : `${k}=${v}`)).join(' ');
  const lines: ResultLine[] = [
    { text: title, bold: true, color: 'red' },
    { text: `step ${at + 1}/${rows.length}  line ${row.line}${row.depth > 0 ? ` (in ${row.procedure})` : ''}${last ? '  assertion fails' : ''}` },
    { text: row.text, bold: true },
    { text: state || '(no variables set yet)' },
  ];
  // The key hint only when it fits: it must never push the values out.
  const hint: ResultLine = { text: 'n/p H/G: next/prev, first/last step', dim: true };
  return <LineList lines={rowCount([...lines, hint], width) <= height ? [...lines, hint] : lines} width={width} height={height} color={color} scroll={scroll ?? 0} {...(onScrollRange ? { onScrollRange } : {})} />;
}
