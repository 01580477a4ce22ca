// The program with line numbers; cut-points (C, or P when an invariant is pinned there), assertions
// (A) and loop heads (L) marked; the selected position and the current counterexample step
// highlighted. Lines wider than the pane are never cut silently: `…` marks hidden text at either
// end, and the view scrolls sideways (`<`/`>`, the `scroll` prop). Vertically it keeps the selection
// or the counterexample step in view, unless scrolled with the keys (the `top` prop).
import { Text } from 'ink';
import type { SourceMark } from '../protocol.js';
import { Frame } from './frame.js';

export interface SourcePaneProps {
  readonly file: string;
  readonly source: string;
  readonly cutpoints: readonly SourceMark[];
  readonly asserts: readonly SourceMark[];
  readonly loops: readonly SourceMark[];
  /** Cut-points with a pinned invariant. */
  readonly pinned?: readonly SourceMark[];
  readonly selectedLine: number | null;
  /** Line of the counterexample step being shown. */
  readonly traceLine: number | null;
  /** Columns of program text scrolled off to the left. */
  readonly scroll?: number;
  /** The first line shown (0-based), once scrolled with the keys; null or absent: follow the focus line. */
  readonly top?: number | null;
  readonly active?: boolean;
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
}

export function sourceLines(source: string): string[] {
  return source.replace(/\n$/, '').split('\n').map((l) => l.replace(/\t/g, '  '));
}

/** Columns left for program text: the frame (border and padding) and the number/mark gutter take the rest. */
function textWidth(lines: readonly string[], width: number): number {
  return Math.max(1, width - 4 - (String(lines.length).length + 5));
}

/** How far the view can scroll: until the longest line's end is in view. */
export function maxSourceScroll(source: string, width: number): number {
  const lines = sourceLines(source);
  const room = textWidth(lines, width);
  return Math.max(0, lines.reduce((m, l) => Math.max(m, l.length), 0) - room + 1);
}

/** The visible part of a line from column `scroll`, with `…` where text is hidden. */
export function visibleText(text: string, scroll: number, room: number): string {
  let shown = text.slice(scroll);
  const hiddenLeft = scroll > 0 && text.slice(0, scroll).trim().length > 0;
  if (shown.length > room) shown = `${shown.slice(0, Math.max(0, room - 1))}…`;
  if (hiddenLeft) shown = `…${shown.slice(1)}`;
  return shown;
}

/** Rows of program text in a pane this high (the frame takes two). */
export function sourceRows(height: number): number {
  return Math.max(1, height - 2);
}

/** The last first line: the end of the program at the pane's bottom. */
export function maxSourceTop(lineCount: number, height: number): number {
  return Math.max(0, lineCount - sourceRows(height));
}

/** The first line shown (0-based): `top` once scrolled, else the focus line in the middle. */
export function sourceTop(lineCount: number, height: number, focusLine: number, top: number | null = null): number {
  const max = maxSourceTop(lineCount, height);
  if (top !== null) return Math.max(0, Math.min(max, top));
  return Math.max(0, Math.min(max, focusLine - 1 - Math.floor(sourceRows(height) / 2)));
}

export function SourcePane(p: SourcePaneProps) {
  const lines = sourceLines(p.source);
  const inner = sourceRows(p.height);
  const first = sourceTop(lines.length, p.height, p.traceLine ?? p.selectedLine ?? 1, p.top ?? null);
  const has = (marks: readonly SourceMark[], line: number) => marks.some((m) => m.line === line);
  const gutter = String(lines.length).length;
  const room = textWidth(lines, p.width);
  const scroll = Math.max(0, p.scroll ?? 0);
  return (
    <Frame title={`Source ${p.file}${scroll > 0 ? ` from col ${scroll + 1}` : ''}`} width={p.width} height={p.height} color={p.color} {...(p.active ? { active: true } : {})}>
      {lines.slice(first, first + inner).map((text, k) => {
        const n = first + k + 1;
        const mark = `${has(p.loops, n) ? 'L' : ' '}${has(p.pinned ?? [], n) ? 'P' : has(p.cutpoints, n) ? 'C' : has(p.asserts, n) ? 'A' : ' '}`;
        const isTrace = n === p.traceLine;
        const isSelected = n === p.selectedLine;
        const prefix = `${isTrace ? '>' : ' '}${String(n).padStart(gutter)} ${mark} `;
        return (
          <Text key={n} wrap="truncate" inverse={isSelected || isTrace} {...(p.color && isTrace ? { color: 'yellow' } : p.color && has(p.cutpoints, n) ? { color: 'cyan' } : {})}>
            {prefix}
            {visibleText(text, scroll, room)}
          </Text>
        );
      })}
    </Frame>
  );
}
