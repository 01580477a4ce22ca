// A result as a list of lines, each wrapped to the pane's width (never cut mid-line), and cut to the
// pane's height at whole lines with a pointer to the full export.
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

export function LineList({ lines, width, height, color }: { lines: readonly ResultLine[]; width: number; height: number; color: boolean }) {
  const wrapped = lines.map((l) => ({ line: l, rows: wrapText(l.text, width) }));
  let shown = wrapped;
  if (rowCount(lines, width) > height) {
    // Whole lines while they fit above the marker; a first line taller than the pane shows its top.
    let used = 0;
    let k = 0;
    while (k < wrapped.length && used + wrapped[k]!.rows.length <= height - 1) used += wrapped[k++]!.rows.length;
    const partial = k === 0 && height > 1 ? [{ ...wrapped[0]!, rows: wrapped[0]!.rows.slice(0, height - 1) }] : [];
    const more = `… ${lines.length - k} more (x exports all)`;
    shown = [...wrapped.slice(0, k), ...partial, { line: { text: more, dim: true }, rows: wrapText(more, width).slice(0, 1) }];
  }
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
