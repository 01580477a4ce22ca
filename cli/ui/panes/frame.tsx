// A bordered pane with its title set into the top border line.
import { Box, Text } from 'ink';
import type { ReactNode } from 'react';

export interface FrameProps {
  readonly title: string;
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
  readonly active?: boolean;
  readonly children: ReactNode;
}

export function topBorder(title: string, width: number): string {
  const inner = Math.max(0, width - 2);
  const room = Math.max(0, inner - 1);
  // A title too long for the border ends in … rather than stopping mid-word unmarked.
  const label = ` ${title} `.length <= room ? ` ${title} ` : ` ${title}`.slice(0, Math.max(0, room - 1)) + (room > 0 ? '…' : '');
  return `┌─${label}${'─'.repeat(Math.max(0, inner - 1 - label.length))}┐`;
}

export function Frame({ title, width, height, color, active, children }: FrameProps) {
  const borderColor = color && active ? { borderColor: 'cyan' } : {};
  return (
    <Box flexDirection="column" width={width} height={height}>
      <Text wrap="truncate" {...(color && active ? { color: 'cyan' } : {})}>{topBorder(title, width)}</Text>
      <Box flexDirection="column" width={width} height={height - 1} borderStyle="single" borderTop={false} {...borderColor} paddingX={1} overflow="hidden">
        {children}
      </Box>
    </Box>
  );
}

export const SPINNER = ['|', '/', '-', '\\'];
export function spinner(millis: number): string {
  return SPINNER[Math.floor(millis / 150) % SPINNER.length]!;
}
