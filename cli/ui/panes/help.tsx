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
    ['Tab', 'focus the next pane: trace, result, source'],
    ['PgUp / PgDn', 'page the focused pane (a trace: 10 steps)'],
    ['H / G', 'first / last line or step (Home / End too; g is wp\'s strategy)'],
    ['< / >', 'scroll the source sideways (… marks text out of view)'],
    ['t / T', 'compose a template step (next field) / back to the schedule'],
    ['+ / -', 'grow / shrink the template field (re-runs)'],
    ['c', 'cut-set: paths / headers (re-runs)'],
    ['g', 'wp strategy: neighbourhood / binary'],
    ['l', 'sp at the selected cut-point\'s line / back at the exit'],
    ['i', 'pin / unpin the selected invariant (kept; verify assumes it)'],
    ['a / e', 'add an assertion after / edit the assertion at the selection'],
    ['S', 'save the edited program as FILE.edited.c (never overwrites)'],
    ['o / r', 'open another file / re-run'],
    ['x / W', 'export the result as JSON / verify\'s SV-COMP witness'],
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
