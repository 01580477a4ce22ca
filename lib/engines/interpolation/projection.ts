// Strongest post-conditions of conjunctions over program variables: Fourier–Motzkin elimination
// (exact over the reals, an over-approximation over the integers, so sound for proofs), with
// equalities used for substitution first and integer normalisation of the results. Past a size
// bound, constraints are dropped: a weaker state is still a sound over-approximation.
import * as L from '../../ir/linear.js';
import type { Linear } from '../../ir/linear.js';
import { normalizeCube, renameAtom, substituteAtom, type Atom } from '../../rational/constraints.js';
import type { Transition } from './model.js';

export type State = readonly Atom[] | 'false';

const MAX_ATOMS = 60;

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** ∃v. atoms, as a conjunction (null: unsatisfiable over the integers). */
export function eliminate(atoms: readonly Atom[], v: string): Atom[] | null {
  const withV = atoms.filter((a) => a.expr.coeffs.has(v));
  if (withV.length === 0) return [...atoms];
  const rest = atoms.filter((a) => !a.expr.coeffs.has(v));
  const eq = withV.filter((a) => a.rel === '==').sort((a, b) => Number(abs(a.expr.coeffs.get(v)!) - abs(b.expr.coeffs.get(v)!)))[0];
  if (eq) {
    // c·v + r == 0: every other atom a (coefficient d) becomes |c|·a − sign(c)·d·eq.
    const c = eq.expr.coeffs.get(v)!;
    const out = withV.filter((a) => a !== eq).map((a) => {
      const d = a.expr.coeffs.get(v)!;
      return { rel: a.rel, expr: L.sub(L.scale(a.expr, abs(c)), L.scale(eq.expr, (c > 0n ? 1n : -1n) * d)) };
    });
    return normalizeCube([...rest, ...out]);
  }
  const lower = withV.filter((a) => a.expr.coeffs.get(v)! > 0n);
  const upper = withV.filter((a) => a.expr.coeffs.get(v)! < 0n);
  const combined: Atom[] = [];
  for (const lo of lower) {
    for (const up of upper) {
      const p = lo.expr.coeffs.get(v)!;
      const n = -up.expr.coeffs.get(v)!;
      combined.push({ rel: '>=', expr: L.add(L.scale(lo.expr, n), L.scale(up.expr, p)) });
    }
  }
  const result = normalizeCube([...rest, ...combined]);
  return result && result.length > MAX_ATOMS ? result.slice(0, MAX_ATOMS) : result;
}

/** The state after a transition (over-approximated over the integers). */
export function post(state: State, t: Transition): State {
  if (state === 'false') return 'false';
  let atoms = normalizeCube([...state, ...t.guard]);
  if (atoms === null) return 'false';
  const u = t.update;
  if (u) {
    const old = `${u.target}#old`;
    atoms = atoms.map((a) => renameAtom(a, (x) => (x === u.target ? old : x)));
    if (u.kind === 'assign') {
      const expr: Linear = L.rename(u.expr, (x) => (x === u.target ? old : x));
      atoms.push({ rel: '==', expr: L.sub(L.variable(u.target), expr) });
    }
    atoms = eliminate(atoms, old);
    if (atoms === null) return 'false';
  }
  return atoms;
}

/** Equalities as two inequalities: the candidate conjuncts a loop abstraction may keep or drop. */
export function splitEqualities(atoms: readonly Atom[]): Atom[] {
  return atoms.flatMap((a) => (a.rel === '>=' ? [a] : [{ rel: '>=' as const, expr: a.expr }, { rel: '>=' as const, expr: L.negate(a.expr) }]));
}

/** wp-style substitution of an assignment into an atom (used by interpolation against a transition). */
export function substituteUpdate(a: Atom, target: string, expr: Linear): Atom {
  return substituteAtom(a, new Map([[target, expr]]));
}
