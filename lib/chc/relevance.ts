// The arguments of each predicate that can matter to a query: those whose values some clause reads.
// Translations of programs carry many that cannot (the inputs' copies a front end keeps for the
// postcondition, havocked temporaries): a loop over 16 arguments where 5 are read. The candidate
// invariants are built over the live arguments only, so that the pairs and hulls they need are within
// their budgets.
//
// Why no invariant needs a dead argument: project the least model onto the live positions. A dead
// position's body variable is a plain variable that the constraint, the other body positions and the
// head's live positions do not mention, so in a clause instance it can take any value the least model
// has there; the projection is then closed under every clause. (Only candidates are chosen here; z3
// checks every model on the clauses as written.)
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { ChcProgram } from './lower.js';

/** Per predicate, its live IR variables, in the predicate's order. */
export function liveArguments(chc: ChcProgram): Map<string, string[]> {
  const live = new Map([...chc.predicates.keys()].map((p) => [p, new Set<number>()]));
  // Per clause: each body position's variable when it is a plain variable used nowhere else in the
  // body or the constraint (else the position is live at once), and the head positions it flows to.
  const copies: { readonly predicate: string; readonly position: number; readonly head: string; readonly to: readonly number[] }[] = [];
  for (const c of chc.formulas) {
    const used = readVariables(c.constraint, chc.booleans);
    const occurrences = new Map<string, number>();
    for (const app of c.body) for (const a of app.args) for (const v of a.coeffs.keys()) occurrences.set(v, (occurrences.get(v) ?? 0) + 1);
    for (const app of c.body) {
      app.args.forEach((a, i) => {
        const plain = a.coeffs.size === 1 && a.constant === 0n && [...a.coeffs.values()][0] === 1n ? [...a.coeffs.keys()][0]! : null;
        // A constant or a term in a body position constrains it, as the constraint does.
        if (plain === null || used.has(plain) || occurrences.get(plain)! > 1) {
          live.get(app.predicate)!.add(i);
          return;
        }
        const to = (c.head?.args ?? []).flatMap((h, k) => (h.coeffs.has(plain) ? [k] : []));
        if (to.length > 0) copies.push({ predicate: app.predicate, position: i, head: c.head!.predicate, to });
      });
    }
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const { predicate, position, head, to } of copies) {
      const set = live.get(predicate)!;
      if (set.has(position) || !to.some((k) => live.get(head)!.has(k))) continue;
      set.add(position);
      changed = true;
    }
  }
  return new Map([...chc.predicates].map(([p, at]) => [p, at.vars.filter((_, i) => live.get(p)!.has(i))]));
}

/** The variables the constraint reads, without the 0/1 range the lowering states for each Boolean
 * (true of every Boolean value: it reads nothing). */
function readVariables(constraint: Formula, booleans: ReadonlySet<string>): Set<string> {
  const isRange = (f: Formula): boolean => {
    if (f.kind !== 'atom' || f.expr.coeffs.size !== 1) return false;
    const [v] = f.expr.coeffs.keys();
    if (!booleans.has(v!)) return false;
    const key = F.toC(f);
    return key === F.toC(F.compare(L.variable(v!), '>=', L.constant(0n))) || key === F.toC(F.compare(L.variable(v!), '<=', L.constant(1n)));
  };
  const out = new Set<string>();
  const stack = [constraint];
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (f.kind === 'and') stack.push(...f.args);
    else if (!isRange(f)) for (const v of F.variablesOf(f)) out.add(v);
  }
  return out;
}
