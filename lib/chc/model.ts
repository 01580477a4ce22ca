// sat's certificate: an interpretation of each predicate (the invariant at its cut-point), printed as
// CHC-COMP models are, `(define-fun P ((x Int) (b Bool)) Bool …)`, and checked by z3 on every clause
// as written in the input: the clause's text with each application replaced by the interpretation,
// negated; unsat means the clause is valid over the integers.
import type { Formula } from '../ir/formula.js';
import type { Linear } from '../ir/linear.js';
import { numeral } from '../certify/lia.js';
import { withLiaSolver } from '../certify/lia-solver.js';
import type { Deadline } from '../limits.js';
import { CHC_MODEL_CHECK_WORK } from '../limits.js';
import { headOf, printSExpr, symbolText, type SExpr } from './sexpr.js';
import type { ChcProgram } from './lower.js';
import { residueOf } from './features.js';
import { freshPrefix, type ChcSystem } from './system.js';

/** Each predicate's interpretation, over its IR argument variables. */
export type ChcModel = ReadonlyMap<string, Formula>;

/** `formula` as an SMT-LIB term in which each variable is its parameter; Booleans are 0/1 integers
 * in the IR, stated here with their own sort. */
export function interpretationText(chc: ChcProgram, predicate: string, formula: Formula, param: (k: number) => string = (k) => symbolText(chc.predicates.get(predicate)!.vars[k]!)): string {
  const at = chc.predicates.get(predicate)!;
  const index = new Map(at.vars.map((v, k) => [v, k]));
  const symbol = (v: string): string => {
    const residue = residueOf(v);
    if (residue) return `(mod ${symbol(residue.variable)} ${residue.divisor})`;
    const k = index.get(v);
    if (k === undefined) throw new Error(`internal: the interpretation of ${predicate} reads ${v}, not one of its arguments`);
    return chc.booleans.has(v) ? `(ite ${param(k)} 1 0)` : param(k);
  };
  const boolAtom = (rel: '>=' | '==', e: Linear): string | null => {
    // b >= 1, b == 1: b; -b >= 0, b == 0: not b
    if (e.coeffs.size !== 1) return null;
    const [[v, c]] = [...e.coeffs];
    const k = index.get(v!);
    if (k === undefined || !chc.booleans.has(v!)) return null;
    if (c === 1n && e.constant === -1n) return param(k);
    if ((c === -1n && e.constant === 0n && rel === '>=') || (c === 1n && e.constant === 0n && rel === '==')) return `(not ${param(k)})`;
    return null;
  };
  const linear = (e: Linear): string => {
    const terms: string[] = [];
    for (const [v, c] of e.coeffs) terms.push(c === 1n ? symbol(v) : `(* ${numeral(c)} ${symbol(v)})`);
    if (e.constant !== 0n || terms.length === 0) terms.push(numeral(e.constant));
    return terms.length === 1 ? terms[0]! : `(+ ${terms.join(' ')})`;
  };
  const print = (f: Formula): string => {
    switch (f.kind) {
      case 'true': return 'true';
      case 'false': return 'false';
      case 'atom': {
        const b = boolAtom(f.rel, f.expr);
        if (b !== null) return b;
        // Stated as `lhs >= rhs` with positive coefficients on each side, as people write it.
        const lhs = { coeffs: new Map([...f.expr.coeffs].filter(([, c]) => c > 0n)), constant: 0n };
        const rhs = { coeffs: new Map([...f.expr.coeffs].filter(([, c]) => c < 0n).map(([v, c]) => [v, -c] as [string, bigint])), constant: -f.expr.constant };
        return `(${f.rel === '>=' ? '>=' : '='} ${linear(lhs)} ${linear(rhs)})`;
      }
      case 'not': return `(not ${print(f.arg)})`;
      case 'and':
      case 'or': return f.args.length === 0 ? (f.kind === 'and' ? 'true' : 'false') : f.args.length === 1 ? print(f.args[0]!) : `(${f.kind} ${f.args.map(print).join(' ')})`;
    }
  };
  return print(formula);
}

/**
 * The text of every predicate's interpretation. A cut-point predicate's is its invariant. Any other
 * predicate's is the strongest one its incoming clauses allow, written from the clauses themselves:
 * for each clause C with head Q(s), `∃ vars(C). body(C) ∧ q = s`, spelled `(not C')` where C' is C
 * with its head replaced by `(not (= q s))` and its body's applications by their interpretations (in
 * the order of the clause graph, which is acyclic outside the cut-points). A predicate no fact leads
 * to is false.
 */
export class Interpretations {
  private readonly texts = new Map<string, string>();
  private readonly inProgress = new Set<string>();
  readonly prefix: string;
  private readonly reachable: ReadonlySet<string>;

  constructor(private readonly chc: ChcProgram, private readonly invariants: ChcModel, private readonly cut: ReadonlySet<string>) {
    this.prefix = freshPrefix(chc.system, 'farkas!p');
    this.reachable = reachablePredicates(chc.system);
  }

  /** Whether the interpretation of `predicate` has quantifiers: written from its clauses, it says
   * that some instance of one of them derives the arguments. */
  quantified(predicate: string): boolean {
    return !this.cut.has(predicate) && this.reachable.has(predicate);
  }

  /** A parameter's name in the interpretation of a predicate that is not a cut-point. */
  param(k: number): string {
    return `${this.prefix}${k}`;
  }

  /** The interpretation of `predicate`, over `param(k)` (or, for a cut-point, over `names(k)`). */
  text(predicate: string, names: (k: number) => string = (k) => this.param(k)): string {
    if (this.cut.has(predicate)) return interpretationText(this.chc, predicate, this.invariants.get(predicate) ?? { kind: 'true' }, names);
    if (!this.reachable.has(predicate)) return 'false';
    const known = this.texts.get(predicate);
    if (known !== undefined) return known;
    if (this.inProgress.has(predicate)) throw new Error(`internal: predicate ${predicate} is on a cycle of clauses without a cut-point`);
    this.inProgress.add(predicate);
    const disjuncts = this.chc.system.clauses.filter((c) => c.head?.predicate.name === predicate).map((c) => {
      const head = c.head!;
      return `(not ${substituted(c.assertion, this.chc.system, (name, args, node) => {
        if (node === head.node) return args.length === 0 ? 'false' : `(not (and ${args.map((a, k) => `(= ${this.param(k)} ${a})`).join(' ')}))`;
        return this.applied(name, args);
      })})`;
    });
    const text = disjuncts.length === 0 ? 'false' : disjuncts.length === 1 ? disjuncts[0]! : `(or ${disjuncts.join(' ')})`;
    if (text.length > MAX_INTERPRETATION_CHARS) throw new ModelTooLarge(predicate);
    this.inProgress.delete(predicate);
    this.texts.set(predicate, text);
    return text;
  }

  /** `predicate` applied to argument texts: its interpretation under a let binding the parameters. */
  applied(predicate: string, args: readonly string[]): string {
    const body = this.text(predicate, (k) => this.param(k));
    if (args.length === 0) return body;
    return `(let (${args.map((a, k) => `(${this.param(k)} ${a})`).join(' ')}) ${body})`;
  }
}

/** Interpretations longer than this are not written out (the answer is then unknown). */
const MAX_INTERPRETATION_CHARS = 4_000_000;

export class ModelTooLarge extends Error {
  constructor(readonly predicate: string) {
    super(`the interpretation of ${predicate} written from its clauses exceeds ${MAX_INTERPRETATION_CHARS} characters`);
  }
}

/** The predicates some derivation reaches, from the facts forward. */
function reachablePredicates(system: ChcSystem): Set<string> {
  const reached = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const c of system.clauses) {
      if (c.head && !reached.has(c.head.predicate.name) && c.body.every((a) => reached.has(a.predicate.name))) {
        reached.add(c.head.predicate.name);
        changed = true;
      }
    }
  }
  return reached;
}

export function modelText(chc: ChcProgram, interpretations: Interpretations, cut: ReadonlySet<string>): string {
  return [...chc.system.predicates.values()].map((p) => {
    const at = chc.predicates.get(p.name)!;
    const name = (k: number): string => (cut.has(p.name) ? symbolText(at.vars[k]!) : interpretations.param(k));
    const params = p.sorts.map((sort, k) => `(${name(k)} ${sort})`).join(' ');
    return `(define-fun ${symbolText(p.name)} (${params}) Bool\n  ${interpretations.text(p.name, name)})`;
  }).join('\n');
}

export type ModelCheck =
  | { readonly ok: true; readonly clauses: number }
  | { readonly ok: false; readonly clause: number; readonly reason: string };

/** Every clause of the input holds under the interpretations: one z3 check per clause, over the exact
 * integers. */
export async function checkModel(chc: ChcProgram, interpretations: Interpretations, deadline?: Deadline): Promise<ModelCheck> {
  const system = chc.system;
  return withLiaSolver(async (solver) => {
    for (const clause of system.clauses) {
      let quantified = false;
      const term = `(not ${substituted(clause.assertion, system, (name, args) => {
        quantified ||= interpretations.quantified(name);
        return interpretations.applied(name, args);
      })})`;
      // The SMT core alone rarely decides a clause whose head has such an interpretation (its
      // existential must be instantiated with the clause's own values): z3's light quantifier
      // elimination first does (rust-horn's bmc-3: 50 million units undecided, then 0.2 million).
      const outcome = await solver.check({ work: CHC_MODEL_CHECK_WORK, ...(quantified ? { preprocess: true } : {}), ...deadline?.timeLimit }, term);
      if (outcome.status === 'sat') return { ok: false, clause: clause.index, reason: 'z3 found values of its variables that break it' };
      if (outcome.status !== 'unsat') return { ok: false, clause: clause.index, reason: `z3 could not decide it (${outcome.reason ?? 'unknown'})` };
    }
    return { ok: true, clauses: system.clauses.length };
  }, { fresh: true });
}

/** The assertion's text with every predicate application replaced by `replace(name, argument texts,
 * the application)`. A let-bound name or a quantified variable that shadows a predicate is left alone. */
function substituted(e: SExpr, system: ChcSystem, replace: (name: string, args: string[], node: SExpr) => string, shadowed: ReadonlySet<string> = new Set()): string {
  if (e.kind === 'atom') return system.predicates.has(e.text) && !shadowed.has(e.text) ? replace(e.text, [], e) : printSExpr(e);
  if (e.kind === 'string') return printSExpr(e);
  const head = headOf(e);
  if (head !== null && system.predicates.has(head) && !shadowed.has(head) && e.items[0]!.kind === 'atom') {
    return replace(head, e.items.slice(1).map((a) => substituted(a, system, replace, shadowed)), e);
  }
  if ((head === 'forall' || head === 'exists' || head === 'let') && e.items.length === 3 && e.items[1]!.kind === 'list') {
    const names = e.items[1]!.items.flatMap((b) => (b.kind === 'list' && b.items[0]?.kind === 'atom' ? [b.items[0].text] : []));
    const inner = new Set([...shadowed, ...names]);
    const bindings = head === 'let'
      ? `(${e.items[1]!.items.map((b) => (b.kind === 'list' && b.items.length === 2 ? `(${printSExpr(b.items[0]!)} ${substituted(b.items[1]!, system, replace, shadowed)})` : printSExpr(b))).join(' ')})`
      : printSExpr(e.items[1]!);
    return `(${head} ${bindings} ${substituted(e.items[2]!, system, replace, inner)})`;
  }
  return `(${e.items.map((x) => substituted(x, system, replace, shadowed)).join(' ')})`;
}
