// A counterexample, one step at a time (n/p): the statement, its line, and the values after it.
import { Box, Text } from 'ink';
import type { TraceRow } from './trace.js';

export interface TraceViewProps {
  readonly title: string;
  readonly rows: readonly TraceRow[];
  readonly index: number;
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
}

export function TraceView({ title, rows, index, height, color }: TraceViewProps) {
  const at = Math.max(0, Math.min(index, rows.length - 1));
  const row = rows[at]!;
  const last = at === rows.length - 1;
  const state = row.state.map(([k, v]) => (row.changed.includes(k) ? `${k}=${v}*` : `${k}=${v}`)).join(' ');
  return (
    <Box flexDirection="column">
      <Text wrap="truncate" bold {...(color ? { color: 'red' } : {})}>{title}</Text>
      <Text wrap="truncate">{`step ${at + 1}/${rows.length}  line ${row.line}${row.depth > 0 ? ` (in ${row.procedure})` : ''}${last ? '  assertion fails' : ''}`}</Text>
      <Text wrap="truncate" bold>{row.text}</Text>
      <Text wrap="wrap">{state || '(no variables set yet)'}</Text>
      {height > 5 ? <Text wrap="truncate" dimColor={color}>n/p: next/previous step</Text> : null}
    </Box>
  );
}
