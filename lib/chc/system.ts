// A system of constrained Horn clauses as read from SMT-LIB HORN text: the predicates and, per
// clause, its variables, the predicate applications of its body, its constraint and its head. Terms
// stay S-expressions paired with the `let` scope they are read in, so that the lowering to the IR
// (lower.ts) and the evaluation of derivations (derivation.ts) read the same text independently.
import type { SourcePos } from '../ir/cfg.js';
import { printSExpr, type SExpr } from './sexpr.js';

export type ChcSort = 'Int' | 'Bool';

export interface Predicate {
  readonly name: string;
  readonly sorts: readonly ChcSort[];
  readonly pos: SourcePos;
}

/** The `let` bindings in scope of a term: innermost frame first. */
export interface LetScope {
  readonly bindings: ReadonlyMap<string, Scoped>;
  readonly parent: LetScope | null;
}

/** A term and the `let` scope it is read in. */
export interface Scoped {
  readonly expr: SExpr;
  readonly scope: LetScope | null;
}

export interface PredicateApp {
  readonly predicate: Predicate;
  readonly args: readonly Scoped[];
  readonly pos: SourcePos;
  /** The application as written (identifies it inside the assertion). */
  readonly node: SExpr;
}

export interface ClauseVar {
  readonly name: string;
  readonly sort: ChcSort;
}

export interface Clause {
  /** 0-based, in the order of the file's assertions. */
  readonly index: number;
  readonly pos: SourcePos;
  readonly vars: readonly ClauseVar[];
  readonly body: readonly PredicateApp[];
  /** The constraint's conjuncts (true when empty). */
  readonly constraint: readonly Scoped[];
  /** The head: a predicate application, or null for `false` (a query). */
  readonly head: PredicateApp | null;
  /** The assertion as written (for the model check and for printing). */
  readonly assertion: SExpr;
}

export interface ChcSystem {
  readonly file: string;
  readonly predicates: ReadonlyMap<string, Predicate>;
  readonly clauses: readonly Clause[];
}

/** Linear: no clause has more than one predicate application in its body. */
export function isLinear(system: ChcSystem): boolean {
  return system.clauses.every((c) => c.body.length <= 1);
}

/** A prefix that no symbol of the system's clauses starts with: `base`, with `!`s added as needed. */
export function freshPrefix(system: ChcSystem, base: string): string {
  const text = system.clauses.map((c) => printSExpr(c.assertion)).join(' ');
  let prefix = base;
  while (text.includes(prefix)) prefix = `${prefix}!`;
  return prefix;
}
