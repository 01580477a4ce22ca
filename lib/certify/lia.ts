// Exact linear integer arithmetic on the shared IR formulas, decided by z3 over the Int sort.
// Formulas are translated to SMT-LIB terms with decimal numerals, so bigint coefficients of any
// size stay exact. These are the primitives the certificate checker and later engines (weakest
// preconditions, interpolation) build on; they share nothing with the SAT pipeline's
// verification-condition generator.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import type { Linear } from '../ir/linear.js';
import { withLiaSolver, type CheckLimits, type LiaSolver } from './lia-solver.js';

/** How a program variable is named in SMT-LIB (e.g. its SSA version's symbol). */
export type SymbolOf = (variable: string) => string;

export function numeral(value: bigint): string {
  return value < 0n ? `(- ${-value})` : value.toString();
}

export function linearToSmt(e: Linear, symbolOf: SymbolOf): string {
  const terms: string[] = [];
  for (const [v, k] of e.coeffs) terms.push(k === 1n ? symbolOf(v) : `(* ${numeral(k)} ${symbolOf(v)})`);
  if (e.constant !== 0n || terms.length === 0) terms.push(numeral(e.constant));
  return terms.length === 1 ? terms[0]! : `(+ ${terms.join(' ')})`;
}

function junction(op: 'and' | 'or', parts: string[]): string {
  if (parts.length === 0) return op === 'and' ? 'true' : 'false';
  return parts.length === 1 ? parts[0]! : `(${op} ${parts.join(' ')})`;
}

export function formulaToSmt(f: Formula, symbolOf: SymbolOf): string {
  switch (f.kind) {
    case 'true': return 'true';
    case 'false': return 'false';
    case 'atom': return `(${f.rel === '>=' ? '>=' : '='} ${linearToSmt(f.expr, symbolOf)} 0)`;
    case 'not': return `(not ${formulaToSmt(f.arg, symbolOf)})`;
    case 'and': return junction('and', f.args.map((a) => formulaToSmt(a, symbolOf)));
    case 'or': return junction('or', f.args.map((a) => formulaToSmt(a, symbolOf)));
  }
}

/** One fresh integer symbol per program variable, in a given solver. */
export function symbolsFor(solver: LiaSolver, variables: Iterable<string>): Map<string, string> {
  return new Map([...variables].sort().map((v) => [v, solver.intSymbol()] as const));
}

export function lookup(symbols: ReadonlyMap<string, string>): SymbolOf {
  return (v) => {
    const symbol = symbols.get(v);
    if (symbol === undefined) throw new Error(`no SMT symbol for variable ${v}`);
    return symbol;
  };
}

export interface SatisfiabilityResult {
  readonly status: 'sat' | 'unsat' | 'unknown';
  /** For 'sat': a value for every variable of the formula that makes it true. */
  readonly model?: Map<string, bigint>;
  /** For 'unknown': why (e.g. "timeout after 100 ms"). */
  readonly reason?: string;
  readonly millis: number;
  /** z3's resource units used (counted when a work limit was given). */
  readonly work?: number;
}

export type LiaOptions = CheckLimits;

export function isSatisfiable(formula: Formula, options: LiaOptions = {}): Promise<SatisfiabilityResult> {
  return withLiaSolver(async (solver) => {
    const symbols = symbolsFor(solver, F.variablesOf(formula));
    solver.assert(formulaToSmt(formula, lookup(symbols)));
    const outcome = await solver.check(options);
    if (outcome.status !== 'sat') return outcome;
    const values = solver.model();
    const model = new Map([...symbols].map(([v, symbol]) => [v, values.int(symbol)] as const));
    return { status: 'sat', model, millis: outcome.millis, work: outcome.work };
  });
}

export interface ValidityResult {
  readonly status: 'valid' | 'invalid' | 'unknown';
  /** For 'invalid': an assignment to the formula's variables that makes it false. */
  readonly counterexample?: Map<string, bigint>;
  readonly reason?: string;
  readonly millis: number;
  readonly work?: number;
}

/** Valid over the integers: true under every assignment (its negation is unsatisfiable). */
export async function isValid(formula: Formula, options: LiaOptions = {}): Promise<ValidityResult> {
  const negation = await isSatisfiable(F.not(formula), options);
  switch (negation.status) {
    case 'unsat': return { status: 'valid', millis: negation.millis, work: negation.work };
    case 'sat': return { status: 'invalid', counterexample: negation.model, millis: negation.millis, work: negation.work };
    case 'unknown': return { status: 'unknown', reason: negation.reason, millis: negation.millis, work: negation.work };
  }
}

/** a ⇒ b over the integers; a counterexample satisfies a and falsifies b. */
export function implies(a: Formula, b: Formula, options: LiaOptions = {}): Promise<ValidityResult> {
  return isValid(F.implies(a, b), options);
}

/** a ⇔ b over the integers; a counterexample satisfies exactly one of them. */
export function equivalent(a: Formula, b: Formula, options: LiaOptions = {}): Promise<ValidityResult> {
  return isValid(F.or(F.and(a, b), F.and(F.not(a), F.not(b))), options);
}
