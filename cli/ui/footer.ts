// The footer's key hint: one line with the keys of the focused pane and of the current mode first,
// then the keys every mode has, as many as the terminal's width takes (`?` lists them all).
import type { Focus } from './state.js';

/** Keys that only mean something in one mode. */
const MODE_KEYS_HINT: Readonly<Record<string, readonly string[]>> = {
  verify: ['↑↓ cut-point', 'i pin', 'W witness'],
  wp: ['g strategy'],
  sp: ['↑↓ l sp-at'],
  bounds: ['↑↓ loop'],
  cex: [],
  nonterm: [],
};

/** What PgUp/PgDn and H/G do in the focused pane. */
function focusHint(focus: Focus): readonly string[] {
  switch (focus) {
    case 'trace':
      return ['[trace] n/p PgUp/PgDn H/G step'];
    case 'result':
      return ['[result] PgUp/PgDn H/G scroll'];
    case 'source':
      return ['[source] PgUp/PgDn H/G scroll', '< > sideways'];
  }
}

export interface HintContext {
  readonly modes: readonly { readonly key: string; readonly id: string }[];
  readonly mode: string;
  readonly focus: Focus;
  readonly columns: number;
}

/** The hint's items, most specific first. */
export function hintItems(c: HintContext): readonly string[] {
  return [
    '? keys',
    'q quit',
    ...focusHint(c.focus),
    'Tab pane',
    ...(MODE_KEYS_HINT[c.mode] ?? []),
    `${c.modes.map((m) => m.key).join(' ')} modes`,
    't/+/- template',
    'a/e assert',
    'S save',
    'x export',
    'o open',
    'r re-run',
    'c cut-set',
  ];
}

/** The items that fit the width, in order (whole items only). */
export function keyHint(c: HintContext): string {
  let line = '';
  for (const item of hintItems(c)) {
    const next = line ? `${line}  ${item}` : item;
    if (next.length > c.columns) break;
    line = next;
  }
  return line;
}
