// Verification conditions over a cut-set (paper 004, Section 2). For each path τ from π1 to π2,
// ω(τ, I_π2) is computed by running τ forwards symbolically: a substitution σ from variables to
// linear expressions over the values at π1 (plus fresh variables for havocs) and the assumed guards.
// This is the same formula as the paper's backward ω with pending substitutions, e.g.
// ω(x := e; assume p, I) = σ(p) ⇒ I[σ]. Each assert on the way yields its own condition
// (I_π1 ∧ guards ⇒ σ(p)), and afterwards p is assumed (sound, and it helps later obligations).
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { SourcePos } from '../ir/cfg.js';
import type { CutPath } from './paths.js';

/** I_π applied to σ(X): the relation at a cut-point, with a pending substitution. */
export interface RelationApp {
  readonly cutpoint: number;
  /** Variables not in the map stand for themselves. */
  readonly subst: ReadonlyMap<string, Linear>;
}

export type Conclusion =
  | { readonly kind: 'relation'; readonly app: RelationApp }
  | { readonly kind: 'assertion'; readonly formula: Formula; readonly pos: SourcePos };

/** ∀X. I_from(X) ∧ ⋀ guards ⇒ conclusion. */
export interface VerificationCondition {
  readonly from: number;
  readonly to: number | null;
  readonly guards: Formula;
  readonly conclusion: Conclusion;
  readonly path: CutPath;
}

export class UnsupportedInVc extends Error {}

export function pathConditions(path: CutPath, relationAt: (cutpoint: number) => boolean): VerificationCondition[] {
  const subst = new Map<string, Linear>();
  const guards: Formula[] = [];
  const out: VerificationCondition[] = [];
  let fresh = 0;
  const apply = (f: Formula): Formula => F.substitute(f, subst);
  for (const e of path.edges) {
    const s = e.stmt;
    switch (s.kind) {
      case 'skip':
        break;
      case 'assign':
        subst.set(s.target, L.substitute(s.expr, subst));
        break;
      case 'havoc':
        // A fresh universally quantified value; the C type range is ignored (an over-approximation).
        subst.set(s.target, L.variable(`${s.target}!h${fresh++}`));
        break;
      case 'assume': {
        const g = apply(s.cond);
        if (g.kind === 'false') return out; // the rest of the path is infeasible
        guards.push(g);
        break;
      }
      case 'assert': {
        const p = apply(s.cond);
        if (p.kind !== 'true') {
          out.push({ from: path.from, to: path.to, guards: F.and(...guards), conclusion: { kind: 'assertion', formula: p, pos: e.pos }, path });
          guards.push(p);
        }
        break;
      }
      case 'call':
        throw new UnsupportedInVc(`call to ${s.callee} must be inlined or summarised first`);
    }
  }
  if (path.to !== null && relationAt(path.to)) {
    out.push({ from: path.from, to: path.to, guards: F.and(...guards), conclusion: { kind: 'relation', app: { cutpoint: path.to, subst: new Map(subst) } }, path });
  }
  return out;
}
