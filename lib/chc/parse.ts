// SMT-LIB HORN text (the CHC-COMP format) → a ChcSystem. Reads the commands the format uses
// (set-logic, set-info, set-option, declare-fun, assert, check-sat, get-model, exit) and splits each
// assertion into variables, body applications, constraint and head; the terms themselves are checked
// by the lowering (lower.ts), which knows their sorts.
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import { headOf, isAtom, isList, readSExprs, type SExpr } from './sexpr.js';
import type { ChcSort, ChcSystem, Clause, ClauseVar, LetScope, Predicate, PredicateApp, Scoped } from './system.js';

/** True when `text` reads as Horn clauses rather than C: it sets the logic HORN. */
export function looksLikeChc(text: string): boolean {
  return /^\s*(;[^\n]*\n\s*)*\(\s*set-(logic\s+HORN|info|option)\b/.test(text) || /\(\s*set-logic\s+HORN\s*\)/.test(text.slice(0, 4096));
}

export function parseChc(text: string, file: string): ChcSystem {
  const predicates = new Map<string, Predicate>();
  const clauses: Clause[] = [];
  for (const command of readSExprs(text, file)) {
    if (!isList(command) || !isAtom(command.items[0])) throw syntaxError('expected a command such as (assert …)', command.pos);
    const name = headOf(command)!;
    const args = command.items.slice(1);
    switch (name) {
      case 'set-logic':
        if (!isAtom(args[0]) || args[0].text !== 'HORN') {
          throw unsupported(`logic ${args[0] && isAtom(args[0]) ? args[0].text : '?'} (farkas reads Horn clauses: (set-logic HORN))`, command.pos);
        }
        break;
      case 'set-info':
      case 'set-option':
      case 'check-sat':
      case 'get-model':
      case 'get-info':
      case 'exit':
        break;
      case 'declare-fun': {
        const [symbol, sorts, result] = args;
        if (!isAtom(symbol) || !isList(sorts) || result === undefined || args.length !== 3) throw syntaxError('expected (declare-fun NAME (SORT …) Bool)', command.pos);
        if (!isAtom(result, 'Bool')) throw unsupported(`declare-fun of sort ${printSort(result)}: only predicates (result Bool) are Horn-clause unknowns`, result.pos);
        if (predicates.has(symbol.text)) throw syntaxError(`predicate '${symbol.text}' is declared twice`, symbol.pos);
        predicates.set(symbol.text, { name: symbol.text, sorts: sorts.items.map(sortOf), pos: command.pos });
        break;
      }
      case 'assert': {
        if (args.length !== 1) throw syntaxError('expected (assert TERM)', command.pos);
        clauses.push(clauseOf(args[0]!, clauses.length, predicates, command.pos));
        break;
      }
      case 'declare-datatypes':
      case 'declare-datatype':
      case 'declare-sort':
      case 'define-sort':
        throw unsupported(`${name}: farkas reads linear integer arithmetic (Int and Bool), not algebraic data types or new sorts`, command.pos);
      case 'declare-const':
      case 'define-fun':
      case 'define-fun-rec':
      case 'push':
      case 'pop':
        throw unsupported(`${name} in a Horn-clause file (the CHC-COMP format declares predicates with declare-fun and asserts clauses)`, command.pos);
      default:
        throw syntaxError(`unknown command '${name}'`, command.pos);
    }
  }
  return { file, predicates, clauses };
}

function printSort(e: SExpr): string {
  return e.kind === 'atom' ? e.text : e.kind === 'list' ? `(${e.items.map(printSort).join(' ')})` : `"${e.text}"`;
}

export function sortOf(e: SExpr): ChcSort {
  if (isAtom(e, 'Int')) return 'Int';
  if (isAtom(e, 'Bool')) return 'Bool';
  const what = printSort(e);
  if (what === 'Real') throw unsupported('sort Real: farkas reads linear integer arithmetic (Int and Bool)', e.pos);
  if (/^\(Array /.test(what)) throw unsupported(`sort ${what}: arrays are outside linear integer arithmetic (Int and Bool)`, e.pos);
  if (/^\(_ BitVec /.test(what)) throw unsupported(`sort ${what}: bit-vectors are outside linear integer arithmetic (Int and Bool)`, e.pos);
  throw unsupported(`sort ${what}: farkas reads linear integer arithmetic (Int and Bool)`, e.pos);
}

function sortedVars(list: SExpr | undefined, pos: SourcePos): ClauseVar[] {
  if (!isList(list)) throw syntaxError('expected a list of sorted variables ((x Int) …)', list?.pos ?? pos);
  return list.items.map((item) => {
    if (!isList(item) || item.items.length !== 2 || !isAtom(item.items[0])) throw syntaxError('expected a sorted variable (NAME SORT)', item.pos);
    return { name: item.items[0].text, sort: sortOf(item.items[1]!) };
  });
}

/** A `let`'s scope: its bindings read in the enclosing scope (SMT-LIB's `let` is parallel). */
export function letScope(e: Extract<SExpr, { kind: 'list' }>, scope: LetScope | null): LetScope {
  const list = e.items[1];
  if (!isList(list) || e.items.length !== 3) throw syntaxError('expected (let ((NAME TERM) …) TERM)', e.pos);
  const bindings = new Map<string, Scoped>();
  for (const b of list.items) {
    if (!isList(b) || b.items.length !== 2 || !isAtom(b.items[0])) throw syntaxError('expected a binding (NAME TERM)', b.pos);
    bindings.set(b.items[0].text, { expr: b.items[1]!, scope });
  }
  return { bindings, parent: scope };
}

export function lookupLet(scope: LetScope | null, name: string): Scoped | undefined {
  for (let s = scope; s; s = s.parent) {
    const found = s.bindings.get(name);
    if (found) return found;
  }
  return undefined;
}

/** One assertion as a clause: its variables, body applications, constraint and head. */
export function clauseOf(assertion: SExpr, index: number, predicates: ReadonlyMap<string, Predicate>, pos: SourcePos): Clause {
  const vars: ClauseVar[] = [];
  let matrix: Scoped = { expr: assertion, scope: null };
  // forall and let around the clause; the variables of nested foralls are the clause's too.
  for (;;) {
    const e = matrix.expr;
    const head = headOf(e);
    if (head === 'forall' && isList(e)) {
      if (e.items.length !== 3) throw syntaxError('expected (forall ((x Int) …) TERM)', e.pos);
      for (const v of sortedVars(e.items[1], e.pos)) {
        if (vars.some((w) => w.name === v.name)) throw unsupported(`variable '${v.name}' is bound twice in one clause`, e.items[1]!.pos);
        vars.push(v);
      }
      matrix = { expr: e.items[2]!, scope: matrix.scope };
    } else if (head === 'exists') {
      throw unsupported('exists in a clause (Horn clauses are universally quantified)', e.pos);
    } else if (head === 'let' && isList(e)) {
      matrix = { expr: e.items[2]!, scope: letScope(e, matrix.scope) };
    } else if (head === '!' && isList(e)) {
      matrix = { expr: e.items[1]!, scope: matrix.scope };
    } else break;
  }
  const isPredicate = (e: SExpr, scope: LetScope | null): boolean => {
    const name = e.kind === 'atom' ? e.text : headOf(e);
    if (name === null || !predicates.has(name)) return false;
    // A let-bound name or a clause variable shadows a predicate of the same name.
    if (e.kind === 'atom' && (lookupLet(scope, name) || vars.some((v) => v.name === name))) return false;
    return true;
  };
  const appOf = (s: Scoped): PredicateApp => {
    const e = s.expr;
    const predicate = predicates.get(e.kind === 'atom' ? e.text : headOf(e)!)!;
    const args = e.kind === 'list' ? e.items.slice(1).map((a) => ({ expr: a, scope: s.scope })) : [];
    if (args.length !== predicate.sorts.length) throw syntaxError(`predicate '${predicate.name}' takes ${predicate.sorts.length} argument(s), given ${args.length}`, e.pos);
    return { predicate, args, pos: e.pos, node: e };
  };
  let bodyTerm: Scoped | null = null;
  let headTerm: Scoped;
  const m = matrix.expr;
  const mHead = headOf(m);
  if (mHead === '=>' && isList(m)) {
    if (m.items.length < 3) throw syntaxError('expected (=> BODY HEAD)', m.pos);
    // (=> a b c) is (=> (and a b) c).
    bodyTerm = m.items.length === 3 ? { expr: m.items[1]!, scope: matrix.scope } : { expr: { kind: 'list', items: [{ kind: 'atom', text: 'and', quoted: false, pos: m.pos }, ...m.items.slice(1, -1)], pos: m.pos }, scope: matrix.scope };
    headTerm = { expr: m.items[m.items.length - 1]!, scope: matrix.scope };
  } else if (mHead === 'not' && isList(m) && m.items.length === 2) {
    bodyTerm = { expr: m.items[1]!, scope: matrix.scope };
    headTerm = { expr: { kind: 'atom', text: 'false', quoted: false, pos: m.pos }, scope: null };
  } else {
    headTerm = matrix;
  }
  const body: PredicateApp[] = [];
  const constraint: Scoped[] = [];
  // The body: a conjunction (through nested and/let) of applications and constraints.
  const stack: Scoped[] = bodyTerm ? [bodyTerm] : [];
  while (stack.length > 0) {
    const s = stack.pop()!;
    const e = s.expr;
    const h = headOf(e);
    if (h === 'and' && isList(e)) {
      for (let k = e.items.length - 1; k >= 1; k--) stack.push({ expr: e.items[k]!, scope: s.scope });
    } else if (h === 'let' && isList(e)) {
      stack.push({ expr: e.items[2]!, scope: letScope(e, s.scope) });
    } else if (isAtom(e, 'true')) {
      continue;
    } else if (isPredicate(e, s.scope)) {
      body.push(appOf(s));
    } else constraint.push(s);
  }
  // The head: false, a predicate application, or a constraint (a query on its negation).
  for (;;) {
    const e = headTerm.expr;
    if (headOf(e) === 'let' && isList(e)) headTerm = { expr: e.items[2]!, scope: letScope(e, headTerm.scope) };
    else break;
  }
  let head: PredicateApp | null = null;
  if (isAtom(headTerm.expr, 'false')) head = null;
  else if (isPredicate(headTerm.expr, headTerm.scope)) head = appOf(headTerm);
  else {
    const pos = headTerm.expr.pos;
    constraint.push({ expr: { kind: 'list', items: [{ kind: 'atom', text: 'not', quoted: false, pos }, headTerm.expr], pos }, scope: headTerm.scope });
  }
  return { index, pos, vars, body, constraint, head, assertion };
}
