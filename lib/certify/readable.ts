// Certified invariants made readable without losing their certificate (issue 24, item 4). Two
// passes, both keeping only what is certified:
// - a conjunct the others at its cut-point imply over the rationals (an exact Farkas certificate,
//   rational-implication.ts) is dropped: the formula means the same over the integers, so the
//   certificate stands as it is;
// - then each remaining conjunct, the most complex first, is dropped if the invariants without it are
//   certified again by the caller's check (with a work limit of its own, READABLE_CHECK_WORK): a weaker invariant that still proves the claim.
// The second pass is bounded by a number of checks (a count, the same at any load), each with the
// caller's own work limit; what is returned is the last set the checker validated.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import { simplifyInvariant } from '../ir/simplify.js';
import { impliedOverRationals } from './rational-implication.js';

/** The same invariant over the integers, each cube without the atoms its other atoms imply. */
export function withoutImpliedConjuncts(f: Formula): Formula {
  // A formula of another shape (a conjunction with a disjunction inside, as Houdini's split
  // candidates give) is left as written: its DNF would read worse.
  if (!dnfShaped(f)) return f;
  const cubes = F.dnf(simplifyInvariant(f)).map((cube) => {
    const kept = new Set(cube.keys());
    for (const i of mostComplexFirst(cube)) {
      const others = cube.filter((_, j) => j !== i && kept.has(j));
      if (others.length > 0 && impliedOverRationals(others, cube[i]!)) kept.delete(i);
    }
    return F.and(...cube.filter((_, j) => kept.has(j)));
  });
  return F.or(...cubes);
}

/** An atom, a conjunction of atoms, or a disjunction of those. */
function dnfShaped(f: Formula): boolean {
  const cube = (g: Formula) => g.kind === 'atom' || (g.kind === 'and' && g.args.every((a) => a.kind === 'atom'));
  return cube(f) || (f.kind === 'or' && f.args.every(cube));
}

/** The positions of `atoms`, the most complex atom first (ties in the order written). */
function mostComplexFirst(atoms: readonly Formula[]): number[] {
  return [...atoms.keys()].sort((a, b) => complexity(atoms[b]!) - complexity(atoms[a]!) || a - b);
}

/**
 * `invariants` (certified by `certify`) with conjuncts dropped while `certify` still validates the
 * result, at most `checks` calls. Only conjunctions of two or more atoms are thinned (a disjunctive
 * invariant keeps its cubes, each cube without its implied atoms).
 */
export async function readableInvariants(
  invariants: ReadonlyMap<number, Formula>,
  certify: (candidate: ReadonlyMap<number, Formula>) => Promise<boolean>,
  checks: number,
): Promise<Map<number, Formula>> {
  const current = new Map([...invariants].map(([c, f]) => [c, withoutImpliedConjuncts(f)] as const));
  // Candidates to drop: every conjunct of a conjunctive invariant, the most complex first.
  const candidates: { at: number; atom: Formula }[] = [];
  for (const [at, f] of current) {
    const cubes = F.dnf(f);
    // One conjunct alone stays: without it the invariant is `true`, which rarely proves anything.
    if (cubes.length !== 1 || cubes[0]!.length < 2) continue;
    for (const atom of cubes[0]!) candidates.push({ at, atom });
  }
  candidates.sort((a, b) => complexity(b.atom) - complexity(a.atom) || a.at - b.at); // stable: ties in the order written
  let left = checks;
  for (const { at, atom } of candidates) {
    if (left <= 0) break;
    const atoms = F.dnf(current.get(at)!)[0] ?? [];
    if (atoms.length < 2) continue; // the others at this cut-point are gone already
    const without = F.and(...atoms.filter((a) => F.toC(a) !== F.toC(atom)));
    const candidate = new Map(current).set(at, without);
    left--;
    if (await certify(candidate)) current.set(at, without);
  }
  return current;
}

/** Variables first, then the size of the coefficients and the constant: what makes a conjunct hard to read. */
function complexity(f: Formula): number {
  if (f.kind !== 'atom') return Number.MAX_SAFE_INTEGER;
  const coefficients = [...f.expr.coeffs.values()].reduce((s, k) => s + digits(k), 0);
  return f.expr.coeffs.size * 1000 + coefficients * 10 + digits(f.expr.constant);
}

function digits(k: bigint): number {
  return (k < 0n ? -k : k).toString().length;
}
