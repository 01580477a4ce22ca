// The modes' ids and keys, without the modes themselves: `farkas ui --help` and the option's choices
// need only these, and the modes load ink and react (most of a command's start-up). A test checks that
// this list is MODES's.
export const MODE_KEYS: readonly { readonly id: string; readonly key: string }[] = [
  { id: 'verify', key: 'v' },
  { id: 'wp', key: 'w' },
  { id: 'sp', key: 's' },
  { id: 'bounds', key: 'b' },
  { id: 'cex', key: 'C' },
  { id: 'nonterm', key: 'N' },
];
