// Values that an assumption pins down. The front end lowers `e / k` and `e % k` to `q := ?` followed by
// an assume that holds for exactly one q (C's truncating quotient). A run that was not told q (the
// nondet stream is exhausted) takes that value instead of a default that would block the run.
// The solver works on the assume's DNF: in each cube the atoms without q must hold and the atoms with q
// bound it to an interval; q is pinned when the union of the cubes' intervals is a single integer.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Frame, Globals, Reader, Test } from './compile.js';
import { WorkLimitExceeded } from '../limits.js';

export type PinSolver = (frame: Frame, globals: Globals) => bigint | null;

/** DNFs larger than this are not searched for a pinned value (the front end's quotient has 2 cubes). */
const MAX_CUBES = 64;

interface Bound {
  readonly rel: F.Relation;
  readonly coeff: bigint;
  readonly rest: Reader;
}

/** null when `cond` does not mention `target` or is too large to analyse. */
export function pinnedValueSolver(
  cond: Formula,
  target: string,
  linear: (e: Linear) => Reader,
  formula: (f: Formula) => Test,
): PinSolver | null {
  if (!F.variablesOf(cond).has(target)) return null;
  let cubes: Formula[][];
  try {
    cubes = F.dnf(cond, MAX_CUBES);
  } catch (error) {
    if (error instanceof WorkLimitExceeded) return null;
    throw error;
  }
  const compiled = cubes.map((cube) => {
    const free: Formula[] = [];
    const bounds: Bound[] = [];
    for (const atom of cube) {
      if (atom.kind !== 'atom') continue; // dnf cubes hold only atoms
      const coeff = L.coefficientOf(atom.expr, target);
      if (coeff === 0n) free.push(atom);
      else {
        const rest = L.fromTerms([...atom.expr.coeffs].filter(([v]) => v !== target), atom.expr.constant);
        bounds.push({ rel: atom.rel, coeff, rest: linear(rest) });
      }
    }
    return { holds: formula(F.and(...free)), bounds };
  });

  return (frame, globals) => {
    let pinned: bigint | null = null;
    for (const { holds, bounds } of compiled) {
      if (!holds(frame, globals)) continue;
      let lo: bigint | null = null;
      let hi: bigint | null = null;
      let empty = false;
      for (const { rel, coeff, rest } of bounds) {
        const r = rest(frame, globals);
        // coeff*q + r >= 0  (or == 0)
        if (rel === '==') {
          if (r % coeff !== 0n) {
            empty = true;
            break;
          }
          const v = -r / coeff;
          lo = lo === null || v > lo ? v : lo;
          hi = hi === null || v < hi ? v : hi;
        } else if (coeff > 0n) {
          const v = L.ceilDiv(-r, coeff);
          lo = lo === null || v > lo ? v : lo;
        } else {
          const v = L.floorDiv(r, -coeff);
          hi = hi === null || v < hi ? v : hi;
        }
      }
      if (empty || (lo !== null && hi !== null && lo > hi)) continue;
      if (lo === null || hi === null || lo !== hi) return null; // more than one value satisfies this cube
      if (pinned !== null && pinned !== lo) return null;
      pinned = lo;
    }
    return pinned;
  };
}
