// Houdini's step on a counterexample state, with equalities kept as a space rather than as atoms.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { CHC_JOIN_MAX_EQUALITIES } from '../limits.js';

/**
 * The candidates that hold in `state`, and for the equalities among them (both halves, `e >= 0` and
 * `-e >= 0`) that it breaks, the combinations of those that hold in it too: the affine join of the
 * equalities with the state (Karr's), where Houdini alone would drop each. The hull of a few derived
 * states on one branch of a loop says M == K + 1 and N == 2K + 2; a step from the other branch breaks
 * both, and what stays is their sum, M + N == 3K + 3. Every combination holds wherever all the
 * equalities held (the derived states, the earlier counterexamples), so each join leaves fewer
 * equalities than before and Houdini still ends.
 */
export function joined(candidates: readonly Formula[], state: ReadonlyMap<string, bigint>): Formula[] {
  const value = (e: Linear): bigint => L.evaluate(e, (v) => state.get(v) ?? 0n);
  const halves = new Map<string, Formula>();
  for (const f of candidates) if (f.kind === 'atom' && f.rel === '>=') halves.set(L.key(f.expr), f);
  const broken: Linear[] = [];
  for (const f of candidates) {
    if (f.kind !== 'atom' || f.rel !== '>=' || value(f.expr) <= 0n) continue;
    const other = L.key(L.negate(f.expr));
    // Each equality once, from its half that the state keeps.
    if (halves.has(other)) broken.push(f.expr);
  }
  const kept = candidates.filter((f) => F.evaluate(f, (v) => state.get(v) ?? 0n));
  if (broken.length < 2) return kept;
  const [pivot, ...rest] = broken;
  const p = value(pivot!);
  const keys = new Set(kept.map((f) => F.toC(f)));
  for (const e of rest.slice(0, CHC_JOIN_MAX_EQUALITIES)) {
    // e·p − pivot·e(state) vanishes at the state; divided by its content.
    let combination = L.sub(L.scale(e, p), L.scale(pivot!, value(e)));
    const g = L.coefficientGcd(combination);
    if (g === 0n) continue;
    if (combination.constant % g !== 0n) continue;
    combination = { coeffs: new Map([...combination.coeffs].map(([v, k]) => [v, k / g])), constant: combination.constant / g };
    for (const half of [F.geqZero(combination), F.geqZero(L.negate(combination))]) {
      const key = F.toC(half);
      if (half.kind !== 'atom' || keys.has(key)) continue;
      keys.add(key);
      kept.push(half);
    }
  }
  return kept;
}
