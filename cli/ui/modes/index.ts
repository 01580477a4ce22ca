// The registry of UI modes: one entry per analysis (key, name, worker-side run, result view).
// Analyses whose library function does not exist yet are not listed.
import type { Mode } from './types.js';
import { verifyMode } from './verify.js';
import { wpMode } from './wp.js';
import { spMode } from './sp.js';
import { cexMode } from './cex.js';
import { nontermMode } from './nonterm.js';
import { boundsMode } from './bounds.js';

export const MODES: readonly Mode[] = [verifyMode, wpMode, spMode, boundsMode, cexMode, nontermMode];

export function modeById(id: string): Mode | undefined {
  return MODES.find((m) => m.id === id);
}

export function modeByKey(key: string): Mode | undefined {
  return MODES.find((m) => m.key === key);
}

export type { Mode, ResultProps } from './types.js';
