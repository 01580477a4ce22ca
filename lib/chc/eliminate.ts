// Nonlinear Horn clauses made linear where they can be: a predicate on no cycle of clauses (a
// procedure summary that does not recurse, a Lustre node's step relation) is resolved away, each
// application of it in a body replaced by each of its definitions, as the preprocessing of Eldarica
// and Golem does. Kind 2's systems are one MAIN predicate over the relations of the nodes it calls:
// with the nodes resolved away they are transition systems, which the engines on graphs solve.
//
// The reduced system is a ChcSystem of its own: each of its clauses is an assertion, built as an
// S-expression and read by the parser, so every engine and every check reads it as it reads input.
// Its answers are mapped back to the input and checked there again (index.ts): a model through the
// interpretations of the eliminated predicates written from their clauses (model.ts), a derivation
// through the input clause instances each reduced instance stands for (`expandDerivation`).
import { CHC_ELIMINATION_CLAUSE_GROWTH, CHC_ELIMINATION_EXTRA_CLAUSES, CHC_ELIMINATION_NODE_GROWTH } from '../limits.js';
import { clauseOf } from './parse.js';
import { headOf, type SExpr } from './sexpr.js';
import type { Derivation } from './derivation.js';
import { freshPrefix, isLinear, type ChcSystem, type Clause, type LetScope, type PredicateApp, type Scoped } from './system.js';

/** An input clause instance inside a reduced clause: the clause and each of its variables' name in
 * the reduced clause. */
export interface InputInstance {
  readonly clause: number;
  readonly vars: ReadonlyMap<string, string>;
}

export interface Reduction {
  readonly system: ChcSystem;
  /** Per reduced clause, the input clauses it resolves: the first has its head, and each later one
   * defines an application in the body of an earlier one. */
  readonly provenance: readonly (readonly InputInstance[])[];
  readonly eliminated: readonly string[];
}

interface Entry {
  readonly clause: Clause;
  readonly provenance: readonly InputInstance[];
  readonly nodes: number;
}

/** The system with its predicates outside cycles resolved away, when that makes it linear within
 * the growth limits; null otherwise (the input is solved as it is). */
export function eliminatePredicates(system: ChcSystem): Reduction | null {
  if (isLinear(system) || shadowsPredicate(system)) return null;
  const recursive = recursivePredicates(system);
  const order = definitionOrder(system).filter((p) => !recursive.has(p));
  if (order.length === 0) return null;
  const fresh = new FreshNames(system);
  let entries: Entry[] = system.clauses.map((c) => ({
    clause: c,
    provenance: [{ clause: c.index, vars: new Map(c.vars.map((v) => [v.name, v.name])) }],
    nodes: nodeCount(c.assertion),
  }));
  const maxClauses = system.clauses.length * CHC_ELIMINATION_CLAUSE_GROWTH + CHC_ELIMINATION_EXTRA_CLAUSES;
  const maxNodes = entries.reduce((n, e) => n + e.nodes, 0) * CHC_ELIMINATION_NODE_GROWTH;
  const eliminated: string[] = [];
  for (const p of order) {
    const definitions = entries.filter((e) => e.clause.head?.predicate.name === p);
    const next: Entry[] = [];
    let nodes = 0;
    let fits = true;
    for (const e of entries) {
      if (e.clause.head?.predicate.name === p) continue;
      // Every application of p in e, resolved with every definition, depth first (file order kept).
      const pending = [e];
      while (pending.length > 0 && fits) {
        const at = pending.pop()!;
        const app = at.clause.body.find((a) => a.predicate.name === p);
        if (!app) {
          next.push(at);
          nodes += at.nodes;
          continue;
        }
        for (let k = definitions.length - 1; k >= 0; k--) pending.push(resolve(at, app, definitions[k]!, fresh, system));
        fits = next.length + pending.length <= maxClauses && nodes <= maxNodes;
      }
      if (!fits) break;
    }
    if (!fits) continue;
    entries = next;
    eliminated.push(p);
  }
  if (eliminated.length === 0 || entries.some((e) => e.clause.body.length > 1)) return null;
  const gone = new Set(eliminated);
  return {
    system: {
      file: system.file,
      predicates: new Map([...system.predicates].filter(([name]) => !gone.has(name))),
      clauses: entries.map((e, index) => ({ ...e.clause, index })),
    },
    provenance: entries.map((e) => e.provenance),
    eliminated,
  };
}

/** The input derivation a derivation of the reduced system stands for: each reduced instance
 * becomes its input instances, each definition before the instance whose body it serves. */
export function expandDerivation(reduction: Reduction, derivation: Derivation): Derivation {
  return {
    steps: derivation.steps.flatMap((step) => [...reduction.provenance[step.clause]!].reverse().map((instance) => ({
      clause: instance.clause,
      values: new Map([...instance.vars].flatMap(([name, reduced]) => {
        const value = step.values.get(reduced);
        return value === undefined ? [] : [[name, value] as const];
      })),
    }))),
  };
}

/**
 * `at` with `app` (an application of D's head predicate) replaced by D's body and constraint:
 * `(forall (D's variables renamed, the parameters V) at[app := (and (let ((x x')…) D's premise ∧
 * V = D's head arguments) ∧ V = app's arguments)])`. D's variables are renamed by a let around its
 * part, so its terms are copied as written, with their own lets; the parameters V carry the
 * arguments across, so neither side's terms are read in the other's scope.
 */
function resolve(at: Entry, app: PredicateApp, definition: Entry, fresh: FreshNames, system: ChcSystem): Entry {
  const d = definition.clause;
  const pos = app.pos;
  const atom = (text: string): SExpr => ({ kind: 'atom', text, quoted: false, pos });
  const list = (items: SExpr[]): SExpr => ({ kind: 'list', items, pos });
  const rename = new Map(d.vars.map((v) => [v.name, fresh.next()]));
  const params = app.predicate.sorts.map(() => fresh.next());
  // D's premise and head equations, one `(let … (and …))` per let scope they are read in.
  const groups = new Map<LetScope | null, SExpr[]>();
  const add = (scope: LetScope | null, e: SExpr): void => {
    const group = groups.get(scope) ?? [];
    group.push(e);
    groups.set(scope, group);
  };
  for (const b of d.body) add(b.args[0]?.scope ?? null, b.node);
  for (const c of d.constraint) add(c.scope, c.expr);
  d.head!.args.forEach((h, k) => add(h.scope, list([atom('='), atom(params[k]!), h.expr])));
  const parts = [...groups].map(([scope, items]) => inScope({ expr: list([atom('and'), ...items]), scope }, list, atom));
  const premise = list([atom('and'), ...parts]);
  const renamed = rename.size > 0 ? list([atom('let'), list([...rename].map(([v, r]) => list([atom(v), atom(r)]))), premise]) : premise;
  const node = app.node;
  const replacement = node.kind === 'list' ? list([atom('and'), renamed, ...params.map((v, k) => list([atom('='), atom(v), node.items[k + 1]!]))]) : renamed;
  const declared = [
    ...d.vars.map((v) => list([atom(rename.get(v.name)!), atom(v.sort)])),
    ...app.predicate.sorts.map((sort, k) => list([atom(params[k]!), atom(sort)])),
  ];
  const body = replaced(at.clause.assertion, node, replacement);
  // The new variables after the clause's own (the runs guess open values in this order, inputs first).
  const quantified = body.kind === 'list' && headOf(body) === 'forall' && body.items.length === 3 && body.items[1]!.kind === 'list';
  const withVars = declared.length === 0 ? body
    : quantified ? list([body.items[0]!, list([...(body.items[1] as Extract<SExpr, { kind: 'list' }>).items, ...declared]), body.items[2]!])
    : list([atom('forall'), list(declared), body]);
  const assertion = copied(withVars);
  return {
    clause: clauseOf(assertion, 0, system.predicates, at.clause.pos),
    provenance: [...at.provenance, ...definition.provenance.map((i) => ({ clause: i.clause, vars: new Map([...i.vars].map(([name, inD]) => [name, rename.get(inD)!])) }))],
    nodes: at.nodes + definition.nodes + 8 * (params.length + 1),
  };
}

/** A term wrapped in the lets of its scope (the outermost first), so it reads the same anywhere. */
function inScope(s: Scoped, list: (items: SExpr[]) => SExpr, atom: (text: string) => SExpr): SExpr {
  let e = s.expr;
  for (let frame = s.scope; frame; frame = frame.parent) {
    e = list([atom('let'), list([...frame.bindings].map(([name, b]) => list([atom(name), b.expr]))), e]);
  }
  return e;
}

/** `root` with the node `target` replaced by `by` (the path rebuilt, without recursion). */
function replaced(root: SExpr, target: SExpr, by: SExpr): SExpr {
  const parent = new Map<SExpr, { readonly node: Extract<SExpr, { kind: 'list' }>; readonly index: number }>();
  const stack: SExpr[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n === target) break;
    if (n.kind === 'list') n.items.forEach((c, index) => { parent.set(c, { node: n, index }); stack.push(c); });
  }
  let current = by;
  for (let at = target; at !== root;) {
    const p = parent.get(at);
    if (!p) throw new Error('internal: the application to resolve is not in its clause');
    const items = [...p.node.items];
    items[p.index] = current;
    current = { kind: 'list', items, pos: p.node.pos };
    at = p.node;
  }
  return current;
}

/** A deep copy: resolvents share their definitions' terms, and an application is known by its node. */
function copied(root: SExpr): SExpr {
  const done = new Map<SExpr, SExpr>();
  const stack: { readonly e: SExpr; expanded: boolean }[] = [{ e: root, expanded: false }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const e = top.e;
    if (e.kind !== 'list') {
      done.set(e, { ...e });
      stack.pop();
    } else if (!top.expanded) {
      top.expanded = true;
      for (const c of e.items) stack.push({ e: c, expanded: false });
    } else {
      done.set(e, { kind: 'list', items: e.items.map((c) => done.get(c)!), pos: e.pos });
      stack.pop();
    }
  }
  return done.get(root)!;
}

function nodeCount(root: SExpr): number {
  let n = 0;
  const stack = [root];
  while (stack.length > 0) {
    const e = stack.pop()!;
    n++;
    if (e.kind === 'list') stack.push(...e.items);
  }
  return n;
}

/** The predicates on a cycle of clauses (from a body application to the head). */
function recursivePredicates(system: ChcSystem): Set<string> {
  const next = new Map<string, Set<string>>([...system.predicates.keys()].map((p) => [p, new Set<string>()]));
  for (const c of system.clauses) if (c.head) for (const b of c.body) next.get(b.predicate.name)!.add(c.head.predicate.name);
  const recursive = new Set<string>();
  for (const p of next.keys()) {
    const seen = new Set<string>();
    const stack = [...next.get(p)!];
    while (stack.length > 0) {
      const q = stack.pop()!;
      if (seen.has(q)) continue;
      seen.add(q);
      stack.push(...next.get(q)!);
    }
    if (seen.has(p)) recursive.add(p);
  }
  return recursive;
}

/** The predicates, those whose definitions use fewer others first: a definition is resolved before
 * it is copied into its uses. */
function definitionOrder(system: ChcSystem): string[] {
  const level = new Map([...system.predicates.keys()].map((p) => [p, 0]));
  for (let round = 0; round < system.predicates.size; round++) {
    let changed = false;
    for (const c of system.clauses) {
      if (!c.head) continue;
      const l = Math.min(system.predicates.size, 1 + Math.max(-1, ...c.body.map((b) => level.get(b.predicate.name)!)));
      if (l > level.get(c.head.predicate.name)!) {
        level.set(c.head.predicate.name, l);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return [...system.predicates.keys()].sort((a, b) => level.get(a)! - level.get(b)!);
}

/** A clause variable or let name equal to a predicate's: the parser tells them apart by scope, which
 * a resolvent's new nesting could change, so such systems are left as they are. */
function shadowsPredicate(system: ChcSystem): boolean {
  for (const c of system.clauses) {
    if (c.vars.some((v) => system.predicates.has(v.name))) return true;
    const stack = [c.assertion];
    while (stack.length > 0) {
      const e = stack.pop()!;
      if (e.kind !== 'list') continue;
      if (headOf(e) === 'let' && e.items[1]?.kind === 'list') {
        for (const b of e.items[1].items) if (b.kind === 'list' && b.items[0]?.kind === 'atom' && system.predicates.has(b.items[0].text)) return true;
      }
      stack.push(...e.items);
    }
  }
  return false;
}

/** Variable names no symbol of the input starts with. */
class FreshNames {
  private readonly prefix: string;
  private count = 0;
  constructor(system: ChcSystem) {
    this.prefix = freshPrefix(system, 'farkas!e');
  }
  next(): string {
    return `${this.prefix}${this.count++}`;
  }
}
