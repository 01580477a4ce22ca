// The neighbourhood of a conjunction ⋀ e_i >= 0 (paper 004, Eq. 4): shift one hyperplane by one, or
// rotate it around its intersection with another. Weakening (preconditions): e_j + 1 and e_j + e_l;
// strengthening (postconditions, Section 5): e_j - 1 and e_j - e_l.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { simplifyInvariant } from '../ir/simplify.js';

export interface Neighbour {
  /** "shift e_j" / "rotate e_j towards e_l", with the atoms as C. */
  readonly move: string;
  readonly atoms: readonly Linear[];
  readonly formula: Formula;
}

export function conjunction(atoms: readonly Linear[]): Formula {
  return F.and(...atoms.map((e) => F.geqZero(e)));
}

export function neighbours(atoms: readonly Linear[], direction: 1 | -1): Neighbour[] {
  const out: Neighbour[] = [];
  const seen = new Set<string>();
  const push = (move: string, replaced: number, atom: Linear): void => {
    const next = atoms.map((e, i) => (i === replaced ? atom : e));
    const formula = simplifyInvariant(conjunction(next));
    const key = F.toC(formula);
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ move, atoms: next, formula });
  };
  atoms.forEach((e, j) => {
    push(`shift ${F.toC(F.geqZero(e))} to ${F.toC(F.geqZero(L.addConstant(e, BigInt(direction))))}`, j, L.addConstant(e, BigInt(direction)));
  });
  atoms.forEach((e, j) => {
    atoms.forEach((other, l) => {
      if (l === j) return;
      const rotated = direction === 1 ? L.add(e, other) : L.sub(e, other);
      push(`rotate ${F.toC(F.geqZero(e))} to ${F.toC(F.geqZero(rotated))}`, j, rotated);
    });
  });
  return out;
}
