// A formula's image through a linear clause: what it says about the head's arguments when the
// body's satisfy it. The guards that split a predicate's candidates into a loop's phases are stated
// where the loop branches (`x > m` after `x++`), and needed at the other predicates of the loop too
// (`x >= m` where it begins): the guards are carried through the clauses, around the loop. Only
// candidates come of them: Houdini keeps the inductive ones, and z3 checks the model on the clauses
// as written.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { ChcProgram, ClauseFormula } from './lower.js';

/**
 * The body predicate's variables in terms of the head predicate's, where the clause determines them:
 * a head argument `x + k` gives x, and an equality of the constraint with one unknown variable at
 * coefficient ±1 gives that one, until nothing changes. Null for a clause without one body
 * application and a head.
 */
export function bodyInTermsOfHead(chc: ChcProgram, c: ClauseFormula): Map<string, Linear> | null {
  if (c.body.length !== 1 || !c.head) return null;
  const head = chc.predicates.get(c.head.predicate)!;
  const known = new Map<string, Linear>();
  c.head.args.forEach((a, j) => {
    if (a.coeffs.size !== 1) return;
    const [[x, k]] = [...a.coeffs];
    if ((k === 1n || k === -1n) && !known.has(x!)) known.set(x!, L.scale(L.addConstant(L.variable(head.vars[j]!), -a.constant), k));
  });
  const equalities = conjuncts(c.constraint).flatMap((f) => (f.kind === 'atom' && f.rel === '==' ? [f.expr] : []));
  for (let changed = true; changed;) {
    changed = false;
    for (const e of equalities) {
      const unknown = [...e.coeffs.keys()].filter((v) => !known.has(v));
      if (unknown.length !== 1) continue;
      const v = unknown[0]!;
      const k = e.coeffs.get(v)!;
      if (k !== 1n && k !== -1n) continue;
      // k·v + rest == 0, so v == -rest / k == -k·rest.
      const rest = L.substitute(L.sub(e, L.variable(v, k)), known);
      known.set(v, L.scale(rest, -k));
      changed = true;
    }
  }
  const body = chc.predicates.get(c.body[0]!.predicate)!;
  const out = new Map<string, Linear>();
  c.body[0]!.args.forEach((a, i) => {
    if ([...a.coeffs.keys()].every((v) => known.has(v))) out.set(body.vars[i]!, L.substitute(a, known));
  });
  return out;
}

/** The image of each candidate whose variables the map determines (others have none). */
export function imagesOf(candidates: readonly Formula[], map: ReadonlyMap<string, Linear>): Formula[] {
  return candidates.flatMap((f) => ([...F.variablesOf(f)].every((v) => map.has(v)) ? [F.substitute(f, map)] : []));
}

function conjuncts(f: Formula): Formula[] {
  const out: Formula[] = [];
  const stack = [f];
  while (stack.length > 0) {
    const g = stack.pop()!;
    if (g.kind === 'and') stack.push(...g.args);
    else out.push(g);
  }
  return out;
}

/**
 * Per predicate, the guards its candidates are split by (`¬g ∨ c`, a loop's phases): the atoms of
 * the clauses' constraints over one or two of its arguments, as `e >= 0` in both polarities (and
 * a loop's or a query's equality as it is), and the images of those of the predicates before it,
 * through the clauses between them. A guard is often stated where the loop branches (`x > m` after
 * `x++`) and needed where the loop begins (`x >= m`).
 *
 * `splits(p, g)`, when given, tells whether g splits the states derived at p (some satisfy it, some
 * do not). A guard that splits none tells the phases apart no better than no guard, so the quota
 * goes to those that do first; the others fill what is left. All are carried to the predicates
 * after p: a guard every state of one predicate satisfies may split those of the next.
 */
export function carriedGuards(chc: ChcProgram, clauses: readonly ClauseFormula[], atomsByClause: readonly (readonly Formula[])[], maxPasses: number, maxGuards: number, splits?: (predicate: string, guard: Formula) => boolean): Map<string, Formula[]> {
  const out = new Map([...chc.predicates.keys()].map((p) => [p, [] as Formula[]]));
  // Guards that split no derived state: carried on, and used where the quota has room at the end.
  const idle = new Map([...chc.predicates.keys()].map((p) => [p, [] as Formula[]]));
  const keys = new Map([...chc.predicates.keys()].map((p) => [p, new Set<string>()]));
  const add = (p: string, f: Formula): boolean => {
    if (f.kind !== 'atom' || F.variablesOf(f).size > 2) return false;
    const into = !splits || splits(p, f) ? out.get(p)! : idle.get(p)!;
    if (into.length >= maxGuards) return false;
    const key = `${f.rel} ${L.key(f.expr)}`;
    if (keys.get(p)!.has(key)) return false;
    keys.get(p)!.add(key);
    into.push(f);
    return true;
  };
  // The rules' and queries' atoms first (where a loop branches or the property is stated), then the
  // facts' (initial values), while the quota lasts.
  const order = [...clauses.keys()].sort((a, b) => Number(clauses[a]!.body.length === 0) - Number(clauses[b]!.body.length === 0));
  for (const k of order) {
    const c = clauses[k]!;
    for (const app of [...(c.head ? [c.head] : []), ...c.body]) {
      const at = chc.predicates.get(app.predicate)!;
      const renaming = new Map<string, Linear>();
      app.args.forEach((a, i) => {
        if (a.coeffs.size === 1 && a.constant === 0n && [...a.coeffs.values()][0] === 1n) renaming.set([...a.coeffs.keys()][0]!, L.variable(at.vars[i]!));
      });
      for (const atom of atomsByClause[k]!) {
        if (atom.kind !== 'atom' || ![...atom.expr.coeffs.keys()].every((v) => renaming.has(v))) continue;
        const e = L.substitute(atom.expr, renaming);
        // e >= 0 and its negation -e - 1 >= 0; an equality of a loop or a query itself (a flag's one
        // value: its complement is a disjunction), its halves and theirs. A fact's equalities are
        // initial values, which the halves split by well enough.
        if (atom.rel === '==' && c.body.length > 0) add(app.predicate, F.eqZero(e));
        const sides = atom.rel === '==' ? [e, L.negate(e)] : [e];
        for (const s of sides) for (const g of [F.geqZero(s), F.geqZero(L.addConstant(L.negate(s), -1n))]) add(app.predicate, g);
      }
    }
  }
  const maps = clauses.flatMap((c) => {
    const map = bodyInTermsOfHead(chc, c);
    return map && c.head!.predicate !== c.body[0]!.predicate ? [{ from: c.body[0]!.predicate, to: c.head!.predicate, map }] : [];
  });
  for (let pass = 0; pass < maxPasses; pass++) {
    let grew = false;
    for (const { from, to, map } of maps) for (const g of imagesOf([...out.get(from)!, ...idle.get(from)!], map)) if (add(to, g)) grew = true;
    if (!grew) break;
  }
  for (const [p, guards] of out) guards.push(...idle.get(p)!.slice(0, Math.max(0, maxGuards - guards.length)));
  return out;
}
