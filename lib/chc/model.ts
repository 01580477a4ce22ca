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
import type { ChcSystem } from './system.js';

/** Each predicate's interpretation, over its IR argument variables. */
export type ChcModel = ReadonlyMap<string, Formula>;

/** `formula` as an SMT-LIB term in which each variable is its parameter; Booleans are 0/1 integers
 * in the IR, stated here with their own sort. */
export function interpretationText(chc: ChcProgram, predicate: string, formula: Formula, param: (k: number) => string = (k) => symbolText(chc.predicates.get(predicate)!.vars[k]!)): string {
  const at = chc.predicates.get(predicate)!;
  const index = new Map(at.vars.map((v, k) => [v, k]));
  const symbol = (v: string): string => {
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
        // Stated as `lhs >= rhs` with the constant on the right, as people write it.
        const rest = { coeffs: f.expr.coeffs, constant: 0n };
        return `(${f.rel === '>=' ? '>=' : '='} ${linear(rest)} ${numeral(-f.expr.constant)})`;
      }
      case 'not': return `(not ${print(f.arg)})`;
      case 'and':
      case 'or': return f.args.length === 0 ? (f.kind === 'and' ? 'true' : 'false') : f.args.length === 1 ? print(f.args[0]!) : `(${f.kind} ${f.args.map(print).join(' ')})`;
    }
  };
  return print(formula);
}

export function modelText(chc: ChcProgram, model: ChcModel): string {
  return [...chc.system.predicates.values()].map((p) => {
    const at = chc.predicates.get(p.name)!;
    const params = at.vars.map((v, k) => `(${symbolText(v)} ${p.sorts[k]})`).join(' ');
    return `(define-fun ${symbolText(p.name)} (${params}) Bool\n  ${interpretationText(chc, p.name, model.get(p.name) ?? { kind: 'true' })})`;
  }).join('\n');
}

export type ModelCheck =
  | { readonly ok: true; readonly clauses: number }
  | { readonly ok: false; readonly clause: number; readonly reason: string };

/** Every clause of the input holds under `model`: one z3 check per clause, over the exact integers. */
export async function checkModel(chc: ChcProgram, model: ChcModel, deadline?: Deadline): Promise<ModelCheck> {
  const system = chc.system;
  const prefix = freshPrefix(system);
  return withLiaSolver(async (solver) => {
    for (const clause of system.clauses) {
      const term = `(not ${substituted(clause.assertion, system, (name, args) => {
        const formula = model.get(name) ?? { kind: 'true' as const };
        const body = interpretationText(chc, name, formula, (k) => `${prefix}${k}`);
        if (args.length === 0) return body;
        return `(let (${args.map((a, k) => `(${prefix}${k} ${a})`).join(' ')}) ${body})`;
      })})`;
      const outcome = await solver.check({ work: CHC_MODEL_CHECK_WORK, ...(deadline?.timeoutMs !== undefined ? { timeoutMs: deadline.timeoutMs } : {}) }, term);
      if (outcome.status === 'sat') return { ok: false, clause: clause.index, reason: 'z3 found values of its variables that break it' };
      if (outcome.status !== 'unsat') return { ok: false, clause: clause.index, reason: `z3 could not decide it (${outcome.reason ?? 'unknown'})` };
    }
    return { ok: true, clauses: system.clauses.length };
  }, { fresh: true });
}

/** A prefix no symbol of the input starts with, for the interpretation's parameters. */
function freshPrefix(system: ChcSystem): string {
  const text = system.clauses.map((c) => printSExpr(c.assertion)).join(' ');
  let prefix = 'farkas!p';
  while (text.includes(prefix)) prefix = `${prefix}!`;
  return prefix;
}

/** The assertion's text with every predicate application replaced by `replace(name, argument texts)`.
 * A let-bound name or a quantified variable that shadows a predicate is left alone. */
function substituted(e: SExpr, system: ChcSystem, replace: (name: string, args: string[]) => string, shadowed: ReadonlySet<string> = new Set()): string {
  if (e.kind === 'atom') return system.predicates.has(e.text) && !shadowed.has(e.text) ? replace(e.text, []) : printSExpr(e);
  if (e.kind === 'string') return printSExpr(e);
  const head = headOf(e);
  if (head !== null && system.predicates.has(head) && !shadowed.has(head) && e.items[0]!.kind === 'atom') {
    return replace(head, e.items.slice(1).map((a) => substituted(a, system, replace, shadowed)));
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
