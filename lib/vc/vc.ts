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

/** A summarised call on the path: the summary of `callee` holds under `subst`, which maps each of
 * the callee's summary variables (its inputs and its return value) to a linear expression over the
 * path's start values and fresh havoc variables. */
export interface CallApp {
  readonly callee: string;
  readonly subst: ReadonlyMap<string, Linear>;
}

/** The summary variables of a procedure whose calls are replaced by its summary. */
export interface SummaryInterface {
  readonly params: readonly string[];
  /** Globals the procedure reads (it writes none): inputs that keep their value over the call. */
  readonly globals: readonly string[];
  /** Name of the return value in the summary (see ir/summary-names.ts), null for a void procedure. */
  readonly returnName: string | null;
}

/** ∀X. I_from(X) ∧ ⋀ premises ∧ ⋀ guards ∧ ⋀ summaries of calls ⇒ conclusion. */
export interface VerificationCondition {
  readonly from: number;
  readonly to: number | null;
  readonly guards: Formula;
  /** Summarised calls on the path before the conclusion (absent: none). */
  readonly calls?: readonly CallApp[];
  /** Further relations assumed beside I_from (a nonlinear Horn clause: every predicate of its body,
   * each under its substitution; absent: none). */
  readonly premises?: readonly RelationApp[];
  readonly conclusion: Conclusion;
  readonly path: CutPath;
}

export class UnsupportedInVc extends Error {}

export function pathConditions(
  path: CutPath,
  relationAt: (cutpoint: number) => boolean,
  summaryOf: (callee: string) => SummaryInterface | undefined = () => undefined,
): VerificationCondition[] {
  const subst = new Map<string, Linear>();
  const guards: Formula[] = [];
  const calls: CallApp[] = [];
  const withCalls = () => (calls.length > 0 ? { calls: [...calls] } : {});
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
        // The absence of signed overflow is a premise the proofs do not use (an over-approximation).
        if (s.premise) break;
        const g = apply(s.cond);
        if (g.kind === 'false') return out; // the rest of the path is infeasible
        guards.push(g);
        break;
      }
      case 'assert': {
        const p = apply(s.cond);
        if (p.kind !== 'true') {
          out.push({ from: path.from, to: path.to, guards: F.and(...guards), ...withCalls(), conclusion: { kind: 'assertion', formula: p, pos: e.pos }, path });
          guards.push(p);
        }
        break;
      }
      case 'call': {
        // v := P(u) becomes v := ?; assume(summary of P with the inputs bound to u and the result to v).
        const summary = summaryOf(s.callee);
        if (!summary) throw new UnsupportedInVc(`call to ${s.callee} must be inlined or summarised first`);
        const bind = new Map<string, Linear>();
        summary.params.forEach((p, k) => bind.set(p, L.substitute(s.args[k]!, subst)));
        for (const g of summary.globals) bind.set(g, subst.get(g) ?? L.variable(g));
        const result = L.variable(`${s.target ?? s.callee}!h${fresh++}`);
        if (summary.returnName !== null) bind.set(summary.returnName, result);
        if (s.target !== null) subst.set(s.target, result);
        calls.push({ callee: s.callee, subst: bind });
        break;
      }
    }
  }
  if (path.to !== null && relationAt(path.to)) {
    out.push({ from: path.from, to: path.to, guards: F.and(...guards), ...withCalls(), conclusion: { kind: 'relation', app: { cutpoint: path.to, subst: new Map(subst) } }, path });
  }
  return out;
}
