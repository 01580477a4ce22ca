// Conjunctions of linear atoms (`e >= 0`, `e == 0`), the currency of the interpolation engines, and
// their integer normalisation: dividing by the gcd of the variable coefficients and rounding the
// constant (a cutting plane) is implied over the integers and decides `2x == 1` without a search.
import * as F from '../ir/formula.js';
import type { Formula, Relation } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';

export interface Atom {
  readonly rel: Relation;
  readonly expr: Linear;
}

/**
 * Integer normal form of one atom: null when it is unsatisfiable over the integers, 'true' when it
 * always holds, else an equivalent (over the integers) atom with coprime variable coefficients.
 */
export function normalizeAtom(atom: Atom): Atom | 'true' | null {
  const g = L.coefficientGcd(atom.expr);
  if (g === 0n) {
    const c = atom.expr.constant;
    return (atom.rel === '>=' ? c >= 0n : c === 0n) ? 'true' : null;
  }
  if (atom.rel === '==') {
    if (atom.expr.constant % g !== 0n) return null;
    // A canonical sign makes equal equalities structurally equal.
    const first = [...atom.expr.coeffs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[0]![1];
    const k = first < 0n ? -g : g;
    return { rel: '==', expr: L.fromTerms([...atom.expr.coeffs].map(([v, c]) => [v, c / k] as [string, bigint]), atom.expr.constant / k) };
  }
  if (g === 1n) return atom;
  return { rel: '>=', expr: L.fromTerms([...atom.expr.coeffs].map(([v, c]) => [v, c / g] as [string, bigint]), L.floorDiv(atom.expr.constant, g)) };
}

/** Normalised conjunction, duplicates removed; null when some atom is unsatisfiable on its own. */
export function normalizeCube(atoms: readonly Atom[]): Atom[] | null {
  const out = new Map<string, Atom>();
  for (const a of atoms) {
    const n = normalizeAtom(a);
    if (n === null) return null;
    if (n === 'true') continue;
    out.set(atomKey(n), n);
  }
  return [...out.values()];
}

export function atomKey(a: Atom): string {
  return `${a.rel}${L.key(a.expr)}`;
}

export function atomToFormula(a: Atom): Formula {
  return a.rel === '>=' ? F.geqZero(a.expr) : F.eqZero(a.expr);
}

export function cubeToFormula(atoms: readonly Atom[]): Formula {
  return F.and(...atoms.map(atomToFormula));
}

/** The cubes of a formula's disjunctive normal form, as atom lists (case split of disjunctive guards). */
export function cubesOf(f: Formula): Atom[][] {
  return F.dnf(f).map((cube) => cube.flatMap((a) => (a.kind === 'atom' ? [{ rel: a.rel, expr: a.expr }] : [])));
}

/** Atoms of a conjunction of atoms, or null when the formula is not one. */
export function atomsOfConjunction(f: Formula): Atom[] | null {
  switch (f.kind) {
    case 'true': return [];
    case 'atom': return [{ rel: f.rel, expr: f.expr }];
    case 'and': {
      const out: Atom[] = [];
      for (const a of f.args) {
        const sub = atomsOfConjunction(a);
        if (sub === null) return null;
        out.push(...sub);
      }
      return out;
    }
    default: return null;
  }
}

/** The negation of one atom over the integers, as cubes: `!(e >= 0)` is `-e - 1 >= 0`, `!(e == 0)` two cubes. */
export function negateAtom(a: Atom): Atom[][] {
  if (a.rel === '>=') return [[{ rel: '>=', expr: L.addConstant(L.negate(a.expr), -1n) }]];
  return [[{ rel: '>=', expr: L.addConstant(a.expr, -1n) }], [{ rel: '>=', expr: L.addConstant(L.negate(a.expr), -1n) }]];
}

export function renameAtom(a: Atom, r: (v: string) => string): Atom {
  return { rel: a.rel, expr: L.rename(a.expr, r) };
}

export function substituteAtom(a: Atom, subst: ReadonlyMap<string, Linear>): Atom {
  return { rel: a.rel, expr: L.substitute(a.expr, subst) };
}

export function atomVariables(atoms: readonly Atom[]): Set<string> {
  const vs = new Set<string>();
  for (const a of atoms) for (const v of a.expr.coeffs.keys()) vs.add(v);
  return vs;
}
