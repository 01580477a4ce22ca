// `?`: the keys.
import { Box, Text } from 'ink';
import type { Mode } from '../modes/types.js';
import { wrapText } from '../wrap.js';

/** The keys; `compactModes` puts every mode on one line (so that the list fits 24 rows). */
export function keyHelp(modes: readonly Mode[], compactModes = false): readonly (readonly [string, string])[] {
  return [
    ...(compactModes ? [['modes', modes.map((m) => `${m.key} ${m.id}`).join('  ')] as const] : modes.map((m) => [m.key, `mode: ${m.name}`] as const)),
    ['up/down j/k', 'select a cut-point or assertion'],
    ['n / p', 'next / previous counterexample step'],
    ['< / >', 'scroll the source sideways (… marks text out of view)'],
    ['t', 'template: compose one step, or go to its next field'],
    ['+ / -', 'grow / shrink the template field (re-runs)'],
    ['T', 'back to the named schedule'],
    ['c', 'cut-set: paths / headers (re-runs)'],
    ['g', 'wp strategy: neighbourhood / binary'],
    ['l', 'sp at the selected cut-point\'s line / back at the exit'],
    ['i', 'pin / unpin the selected invariant (kept; verify assumes it)'],
    ['a / e', 'add an assertion after / edit the assertion at the selection'],
    ['o', 'open another file'],
    ['r', 're-run'],
    ['x', 'export the result as JSON (FILE.MODE.json)'],
    ['W', 'export verify\'s SV-COMP witness (FILE.witness.yml)'],
    ['?', 'this help (esc closes)'],
    ['q', 'quit (ends the solvers)'],
  ];
}

/** Each key with its description wrapped beside it (nothing is cut at 80 columns). */
export function Help({ modes, height, width = 80 }: { modes: readonly Mode[]; height: number; width?: number }) {
  const room = Math.max(10, width - 4 - 13);
  return (
    <Box flexDirection="column" borderStyle="single" height={height} paddingX={1}>
      <Text bold>Keys</Text>
      {keyHelp(modes, keyHelp(modes).length > height - 3).flatMap(([k, d]) =>
        wrapText(d, room).map((row, i) => <Text key={`${k}.${i}`} wrap="truncate">{`${(i === 0 ? k : '').padEnd(12)} ${row.trimStart()}`}</Text>),
      )}
    </Box>
  );
}
