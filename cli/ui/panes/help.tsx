// `?`: the keys.
import { Box, Text } from 'ink';
import type { Mode } from '../modes/types.js';

export function keyHelp(modes: readonly Mode[]): readonly (readonly [string, string])[] {
  return [
    ...modes.map((m) => [m.key, `mode: ${m.name}`] as const),
    ['up/down j/k', 'select a cut-point or assertion'],
    ['n / p', 'next / previous counterexample step'],
    ['t', 'template: compose one step; next field (disjuncts, conjuncts, bits)'],
    ['+ / -', 'grow / shrink the template field (re-runs)'],
    ['T', 'back to the named schedule'],
    ['c', 'cut-set: paths / headers (re-runs)'],
    ['g', 'wp strategy: neighbourhood / binary'],
    ['a / e', 'add an assertion after / edit the assertion at the selection'],
    ['o', 'open another file'],
    ['r', 're-run'],
    ['x', 'export the result as JSON'],
    ['?', 'this help (esc closes)'],
    ['q', 'quit (ends the solvers)'],
  ];
}

export function Help({ modes, height }: { modes: readonly Mode[]; height: number }) {
  return (
    <Box flexDirection="column" borderStyle="single" height={height} paddingX={1}>
      <Text bold>Keys</Text>
      {keyHelp(modes).map(([k, d]) => (
        <Text key={k} wrap="truncate">{`${k.padEnd(12)} ${d}`}</Text>
      ))}
    </Box>
  );
}
