// `?`: the keys.
import { Box, Text } from 'ink';
import type { Mode } from '../modes/types.js';

/** The keys; `compactModes` puts every mode on one line (so that the list fits 24 rows). */
export function keyHelp(modes: readonly Mode[], compactModes = false): readonly (readonly [string, string])[] {
  return [
    ...(compactModes ? [['modes', modes.map((m) => `${m.key} ${m.id}`).join('  ')] as const] : modes.map((m) => [m.key, `mode: ${m.name}`] as const)),
    ['up/down j/k', 'select a cut-point or assertion'],
    ['n / p', 'next / previous counterexample step'],
    ['< / >', 'scroll the source sideways (… marks text out of view)'],
    ['t', 'template: compose one step; next field (disjuncts, conjuncts, bits)'],
    ['+ / -', 'grow / shrink the template field (re-runs)'],
    ['T', 'back to the named schedule'],
    ['c', 'cut-set: paths / headers (re-runs)'],
    ['g', 'wp strategy: neighbourhood / binary'],
    ['l', 'sp at the selected cut-point\'s line / back at the exit'],
    ['i', 'pin / unpin the selected cut-point\'s invariant (kept, and a known conjunct of later verify runs)'],
    ['a / e', 'add an assertion after / edit the assertion at the selection'],
    ['o', 'open another file'],
    ['r', 're-run'],
    ['x', 'export the result as JSON (FILE.MODE.json)'],
    ['W', 'export the verify result as an SV-COMP witness (FILE.witness.yml)'],
    ['?', 'this help (esc closes)'],
    ['q', 'quit (ends the solvers)'],
  ];
}

export function Help({ modes, height }: { modes: readonly Mode[]; height: number }) {
  return (
    <Box flexDirection="column" borderStyle="single" height={height} paddingX={1}>
      <Text bold>Keys</Text>
      {keyHelp(modes, keyHelp(modes).length > height - 3).map(([k, d]) => (
        <Text key={k} wrap="truncate">{`${k.padEnd(12)} ${d}`}</Text>
      ))}
    </Box>
  );
}
