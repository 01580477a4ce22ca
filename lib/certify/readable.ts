// Certified invariants made readable without losing their certificate (issue 24, item 4). Two
// passes, both keeping only what is certified:
// - a conjunct the others at its cut-point imply over the rationals (an exact Farkas certificate,
//   rational-implication.ts) is dropped: the formula means the same over the integers, so the
//   certificate stands as it is;
// - then each remaining conjunct, the most complex first, is dropped if the invariants without it are
//   certified again by the caller's check (with a work limit of its own, READABLE_CHECK_WORK): a weaker invariant that still proves the claim.
// - then each large constant left (of an inequality, the largest first) is moved towards 0 while the
//   invariants with it are certified again: 0, then powers of ten, then halving (the paper's binary
//   search for bounds), so that `y + 294910 >= 2 * x` reads `y + 7 >= 2 * x` when 7 is enough, and a
//   tight constant costs two checks.
// Both re-certifying passes are bounded by numbers of checks (a count, the same at any load), each with
// the caller's own work limit; what is returned is the last set the checker validated.
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Formula } from '../ir/formula.js';
import { simplifyInvariant } from '../ir/simplify.js';
import { impliedOverRationals } from './rational-implication.js';

/** Whether the checker validates `candidate`, which differs from the last validated invariants at
 * the cut-point `changedAt` alone (a check may cover only what touches it). */
export type Certify = (candidate: ReadonlyMap<number, Formula>, changedAt: number) => Promise<boolean>;

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
  certify: Certify,
  checks: number,
  constantChecks = 0,
  programConstants: ReadonlySet<bigint> = new Set(),
): Promise<Map<number, Formula>> {
  const thinned = await withoutUnneededConjuncts(invariants, certify, checks);
  return smallerConstants(thinned, certify, constantChecks, programConstants);
}

async function withoutUnneededConjuncts(
  invariants: ReadonlyMap<number, Formula>,
  certify: Certify,
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
    if (await certify(candidate, at)) current.set(at, without);
  }
  return current;
}

/** A constant no larger than this in absolute value reads well enough: it is not worth a check
 * (nor is one next to a constant of the program, or to a round number: nextToRound). */
const SMALL_CONSTANT = 10n;

/**
 * `invariants` with the constants of their inequalities moved towards 0 while `certify` validates
 * the result, at most `checks` calls; the largest constant first. For each: 0 first (one check when
 * the constant was loose), then the largest power of ten below it (a failure: near tight, it stays),
 * then the smallest power of ten that passes (bisecting the exponents), then the smallest constant
 * between it and the power below, by halving (the paper's binary search for bounds). What `certify` is
 * not asked about, or rejects, stays as it was. Only DNF-shaped invariants (those the first pass
 * reads); a constant one off a constant of the program (`programConstants`, absolute values) is the
 * program's own bound, usually tight, and is left as it is.
 */
async function smallerConstants(
  invariants: Map<number, Formula>,
  certify: Certify,
  checks: number,
  programConstants: ReadonlySet<bigint>,
): Promise<Map<number, Formula>> {
  const current = new Map(invariants);
  const cubesAt = new Map<number, Formula[][]>();
  const large: { at: number; cube: number; atom: number; size: bigint }[] = [];
  for (const [at, f] of current) {
    if (!dnfShaped(f)) continue;
    const cubes = F.dnf(f);
    cubesAt.set(at, cubes);
    cubes.forEach((atoms, cube) =>
      atoms.forEach((a, atom) => {
        if (a.kind !== 'atom' || a.rel !== '>=' || L.isConstant(a.expr)) return;
        const size = abs(a.expr.constant);
        const programs = [size - 1n, size, size + 1n].some((k) => programConstants.has(k));
        if (size > SMALL_CONSTANT && !programs && !nextToRound(size)) large.push({ at, cube, atom, size });
      }),
    );
  }
  large.sort((a, b) => (a.size === b.size ? a.at - b.at : a.size > b.size ? -1 : 1));
  let left = checks;
  for (const { at, cube, atom } of large) {
    let good = (cubesAt.get(at)![cube]![atom] as Extract<Formula, { kind: 'atom' }>).expr.constant;
    /** Certifies the invariants with this constant in place of `good`; keeps it when they pass. */
    const tryConstant = async (k: bigint): Promise<boolean> => {
      const cubes = cubesAt.get(at)!;
      const a = cubes[cube]![atom]! as Extract<Formula, { kind: 'atom' }>;
      const moved = F.geqZero(L.addConstant(a.expr, k - a.expr.constant));
      const changed = cubes.map((atoms, i) => (i !== cube ? atoms : atoms.map((b, j) => (j !== atom ? b : moved))));
      const formula = F.or(...changed.map((atoms) => F.and(...atoms)));
      left--;
      if (!(await certify(new Map(current).set(at, formula), at))) return false;
      cubesAt.set(at, changed);
      current.set(at, formula);
      good = k;
      return true;
    };
    if (left <= 0) break;
    if (await tryConstant(0n)) continue;
    // Then the largest power of ten below it: when that fails the constant is within a factor of
    // 10 of its tight value and stays (two checks for the common case of a tight constant).
    const sign = good < 0n ? -1n : 1n;
    let top = 0;
    while (10n ** BigInt(top + 1) < abs(good)) top++;
    if (left <= 0 || !(await tryConstant(sign * 10n ** BigInt(top)))) continue;
    // It passed: the smallest power of ten that passes, by bisecting the exponents below it (-1
    // standing for 0, which failed), then the smallest constant between it and the power below, by
    // halving (the paper's binary search for bounds).
    let failed = -1;
    let passed = top;
    while (passed - failed > 1 && left > 0) {
      const mid = (failed + passed) >> 1;
      if (await tryConstant(sign * 10n ** BigInt(mid))) passed = mid;
      else failed = mid;
    }
    let bad = failed < 0 ? 0n : sign * 10n ** BigInt(failed);
    while (left > 0) {
      const halfway = bad + (good - bad) / 2n;
      if (halfway === bad || halfway === good) break;
      if (!(await tryConstant(halfway))) bad = halfway;
    }
  }
  return current;
}

/** 999999, 1000, 101, 20: one digit and zeros, give or take one. Programs bound their loops and
 * inputs with such numbers, an invariant's constant next to one is usually the program's own (and
 * tight), and it reads well: not worth the checks. */
function nextToRound(k: bigint): boolean {
  return [k - 1n, k, k + 1n].some((m) => /^[1-9]0*$/.test(m.toString()));
}

function abs(k: bigint): bigint {
  return k < 0n ? -k : k;
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
