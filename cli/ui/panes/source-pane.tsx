// The program with line numbers; cut-points (C, or P when an invariant is pinned there), assertions
// (A) and loop heads (L) marked; the
// selected position and the current counterexample step highlighted.
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
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
}

export function SourcePane(p: SourcePaneProps) {
  const lines = p.source.replace(/\n$/, '').split('\n');
  const inner = Math.max(1, p.height - 2);
  const focus = p.traceLine ?? p.selectedLine ?? 1;
  const first = Math.max(0, Math.min(lines.length - inner, focus - 1 - Math.floor(inner / 2)));
  const has = (marks: readonly SourceMark[], line: number) => marks.some((m) => m.line === line);
  const gutter = String(lines.length).length;
  return (
    <Frame title={`Source ${p.file}`} width={p.width} height={p.height} color={p.color}>
      {lines.slice(first, first + inner).map((text, k) => {
        const n = first + k + 1;
        const mark = `${has(p.loops, n) ? 'L' : ' '}${has(p.pinned ?? [], n) ? 'P' : has(p.cutpoints, n) ? 'C' : has(p.asserts, n) ? 'A' : ' '}`;
        const isTrace = n === p.traceLine;
        const isSelected = n === p.selectedLine;
        const prefix = `${isTrace ? '>' : ' '}${String(n).padStart(gutter)} ${mark} `;
        return (
          <Text key={n} wrap="truncate" inverse={isSelected || isTrace} {...(p.color && isTrace ? { color: 'yellow' } : p.color && has(p.cutpoints, n) ? { color: 'cyan' } : {})}>
            {prefix}
            {text.replace(/\t/g, '  ')}
          </Text>
        );
      })}
    </Frame>
  );
}
