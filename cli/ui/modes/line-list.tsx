// A result as a list of lines, cut to the pane's height with a pointer to the full export.
import { Box, Text } from 'ink';

export interface ResultLine {
  readonly text: string;
  readonly bold?: boolean;
  readonly dim?: boolean;
}

export function LineList({ lines, height, color }: { lines: readonly ResultLine[]; height: number; color: boolean }) {
  const shown = lines.length <= height ? lines : [...lines.slice(0, height - 1), { text: `… ${lines.length - height + 1} more (x exports all)`, dim: true }];
  return (
    <Box flexDirection="column">
      {shown.map((l, i) => (
        <Text key={i} wrap="truncate" bold={l.bold ?? false} dimColor={color && (l.dim ?? false)}>{l.text}</Text>
      ))}
    </Box>
  );
}
