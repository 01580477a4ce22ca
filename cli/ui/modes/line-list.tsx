// A result as a list of lines, each wrapped to the pane's width (never cut mid-line), and cut to the
// pane's height at whole lines with a pointer to the full export. It scrolls by whole lines (PgUp/PgDn
// in the UI): `scroll` is the first line shown, and a row on top says how many are above.
import { useLayoutEffect } from 'react';
import { Box, Text } from 'ink';
import { wrapText } from '../wrap.js';

export interface ResultLine {
  readonly text: string;
  readonly bold?: boolean;
  readonly dim?: boolean;
  /** A colour name (ink), used when colours are on. */
  readonly color?: string;
}

/** Rows the lines take at this width. */
export function rowCount(lines: readonly ResultLine[], width: number): number {
  return lines.reduce((n, l) => n + wrapText(l.text, width).length, 0);
}

/** The first line the list can be scrolled to: from there on, every line fits below the `… above`
 * row. 0 when the whole list fits. */
export function maxLineScroll(rowsPerLine: readonly number[], height: number): number {
  const total = rowsPerLine.reduce((a, b) => a + b, 0);
  if (total <= height) return 0;
  let k = rowsPerLine.length;
  let used = 0;
  // Lines from the end while they fit with the `… above` row.
  while (k > 0 && used + rowsPerLine[k - 1]! <= height - 1) used += rowsPerLine[--k]!;
  return Math.min(k === rowsPerLine.length ? rowsPerLine.length - 1 : k, rowsPerLine.length - 1);
}

type Wrapped = { readonly line: ResultLine; readonly rows: readonly string[] };

/** Whole lines from the first while they fit above the `… N more` marker; a first line taller than
 * the pane shows its top. */
function fitFrom(wrapped: readonly Wrapped[], width: number, height: number): Wrapped[] {
  const total = wrapped.reduce((n, w) => n + w.rows.length, 0);
  if (total <= height) return [...wrapped];
  let used = 0;
  let k = 0;
  while (k < wrapped.length && used + wrapped[k]!.rows.length <= height - 1) used += wrapped[k++]!.rows.length;
  const partial = k === 0 && height > 1 ? [{ ...wrapped[0]!, rows: wrapped[0]!.rows.slice(0, height - 1) }] : [];
  const more = `… ${wrapped.length - k} more (x exports all)`;
  return [...wrapped.slice(0, k), ...partial, { line: { text: more, dim: true }, rows: wrapText(more, width).slice(0, 1) }];
}

export interface ScrollRange {
  readonly max: number;
  readonly page: number;
}

export interface LineListProps {
  readonly lines: readonly ResultLine[];
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
  /** The first line shown (clamped to how far the list can scroll). */
  readonly scroll?: number;
  /** Told how far the list can scroll and how many lines a page is (those shown whole), so that
   * the keys can stop there (G) and move by a page without skipping a line (PgDn). */
  readonly onScrollRange?: (range: ScrollRange) => void;
}

export function LineList({ lines, width, height, color, scroll = 0, onScrollRange }: LineListProps) {
  const wrapped: Wrapped[] = lines.map((l) => ({ line: l, rows: wrapText(l.text, width) }));
  const max = maxLineScroll(wrapped.map((w) => w.rows.length), height);
  const first = Math.max(0, Math.min(scroll, max));
  const above: Wrapped[] = first > 0 ? [{ line: { text: `… ${first} above`, dim: true }, rows: [`… ${first} above`] }] : [];
  const fitted = fitFrom(wrapped.slice(first), width, height - above.length);
  const shown = [...above, ...fitted];
  const page = Math.max(1, fitted.filter((w) => wrapped.includes(w)).length);
  // A layout effect: run as the list is drawn, so the range is known before the next key (passive
  // effects may wait for the next render).
  useLayoutEffect(() => {
    onScrollRange?.({ max, page });
  });
  return (
    <Box flexDirection="column">
      {shown.flatMap(({ line: l, rows }, i) =>
        rows.map((row, j) => (
          <Text key={`${i}.${j}`} wrap="truncate" bold={l.bold ?? false} dimColor={color && (l.dim ?? false)} {...(color && l.color ? { color: l.color } : {})}>{row}</Text>
        )),
      )}
    </Box>
  );
}
