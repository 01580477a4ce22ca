// Side-effect-free expressions translated without emitting branches: an arithmetic expression becomes
// a list of guarded linear values (`c ? a : b` is [(c, a), (!c, b)]; a comparison used as a value is
// [(cmp, 1), (!cmp, 0)]), a condition becomes one formula. Guards of a case list are mutually exclusive
// and exhaustive by construction, so a consumer may emit one assume edge per case. Divisions need fresh
// variables and are evaluated up front by the caller (see DivisionValues).
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { BinaryOp, CType, Expr } from './ast.js';
import { isVoid, scalarType } from './ctypes.js';

export interface Case {
  readonly guard: Formula;
  readonly value: Linear;
}

/** Raised when an expression would split into too many cases; callers fall back to branching. */
export class TooManyCases extends Error {
  constructor() {
    super('too many cases');
  }
}

const MAX_CASES = 64;

/** Values of the division/modulo nodes of an expression, computed before it (keyed by node). */
export type DivisionValues = ReadonlyMap<Expr, Linear>;

export interface VariableReader {
  read(name: string, pos: SourcePos): Linear;
}

const COMPARISONS = new Set(['<', '<=', '>', '>=', '==', '!=']);
const BIT_OPS = new Set(['&', '|', '^', '<<', '>>']);

export function isComparison(op: BinaryOp): op is F.Comparison {
  return COMPARISONS.has(op);
}

/** No calls, assignments or increments anywhere inside. */
export function isPure(e: Expr): boolean {
  switch (e.kind) {
    case 'call':
    case 'assign':
    case 'incdec':
      return false;
    case 'unary':
    case 'cast':
      return isPure(e.arg);
    case 'binary':
    case 'comma':
      return isPure(e.left) && isPure(e.right);
    case 'cond':
      return isPure(e.test) && isPure(e.then) && isPure(e.else);
    case 'index':
      return isPure(e.base) && isPure(e.index);
    case 'member':
      return isPure(e.base);
    default:
      return true;
  }
}

/** The diagnostic for an expression form that is never supported (pointers, strings, bit operations, …). */
export function rejectExpression(e: Expr): never {
  switch (e.kind) {
    case 'float':
      throw unsupported(`floating-point constant '${e.text}'`, e.pos);
    case 'string':
      throw unsupported('string literal', e.pos);
    case 'sizeof':
      throw unsupported("'sizeof'", e.pos);
    case 'index':
      throw unsupported('array subscript', e.pos);
    case 'member':
      throw unsupported(`${e.arrow ? "'->'" : "'.'"} member access (structs and unions)`, e.pos);
    case 'initlist':
      throw unsupported('initializer list', e.pos);
    case 'unary':
      if (e.op === '~') throw unsupported("bit operation '~'", e.pos);
      if (e.op === '&') throw unsupported("address-of operator '&' (pointers)", e.pos);
      if (e.op === '*') throw unsupported("pointer dereference '*'", e.pos);
      break;
    case 'binary':
      if (BIT_OPS.has(e.op)) throw unsupported(`bit operation '${e.op}'`, e.opPos);
      break;
    case 'int':
      if (e.unsignedSuffix) throw unsupported(`unsigned constant '${e.text}' (wrap-around arithmetic is not modelled)`, e.pos);
      break;
    default:
      break;
  }
  throw new Error(`internal: rejectExpression called on supported ${e.kind}`);
}

/** Cast target check: signed scalar types and _Bool; `void` is reported as null. */
export function castTarget(type: CType, pos: SourcePos): 'void' | 'bool' | 'int' {
  if (isVoid(type)) return 'void';
  return scalarType(type, pos, 'cast').isBool ? 'bool' : 'int';
}

export function voidValueError(pos: SourcePos): never {
  throw syntaxError('void value not ignored as it ought to be', pos);
}

/** `e1 * e2` where at least one side is constant; otherwise the product is outside linear arithmetic. */
export function multiply(a: Linear, b: Linear, pos: SourcePos): Linear {
  if (L.isConstant(a)) return L.scale(b, a.constant);
  if (L.isConstant(b)) return L.scale(a, b.constant);
  throw unsupported('product of two non-constant expressions (non-linear arithmetic)', pos);
}

/** The constant divisor of `/` or `%`: non-zero and known after constant folding. */
export function constantDivisor(cases: readonly Case[], opPos: SourcePos, op: string): bigint {
  const only = cases.length === 1 ? cases[0]! : null;
  if (!only || only.guard.kind !== 'true' || !L.isConstant(only.value)) {
    throw unsupported(`${op === '/' ? 'division' : 'modulo'} by a non-constant expression`, opPos);
  }
  if (only.value.constant === 0n) throw unsupported(`${op === '/' ? 'division' : 'modulo'} by zero`, opPos);
  return only.value.constant;
}

/** Negation that keeps atoms readable: flips `>=` atoms, keeps `!(e == 0)`, pushes through and/or. */
export function negate(f: Formula): Formula {
  switch (f.kind) {
    case 'true':
      return F.FALSE;
    case 'false':
      return F.TRUE;
    case 'atom':
      return f.rel === '>=' ? F.geqZero(L.addConstant(L.negate(f.expr), -1n)) : F.not(f);
    case 'not':
      return f.arg;
    case 'and':
      return F.or(...f.args.map(negate));
    case 'or':
      return F.and(...f.args.map(negate));
  }
}

function limit(cases: Case[]): Case[] {
  if (cases.length > MAX_CASES) throw new TooManyCases();
  return cases;
}

function product(a: readonly Case[], b: readonly Case[], combine: (x: Linear, y: Linear) => Linear): Case[] {
  const out: Case[] = [];
  for (const x of a) {
    for (const y of b) {
      const guard = F.and(x.guard, y.guard);
      if (guard.kind !== 'false') out.push({ guard, value: combine(x.value, y.value) });
    }
  }
  return limit(out);
}

function boolCases(f: Formula): Case[] {
  if (f.kind === 'true') return [{ guard: F.TRUE, value: L.constant(1n) }];
  if (f.kind === 'false') return [{ guard: F.TRUE, value: L.constant(0n) }];
  return [
    { guard: f, value: L.constant(1n) },
    { guard: negate(f), value: L.constant(0n) },
  ];
}

/** Folds constant-guard cases: e.g. `1 ? x : y` keeps only x. */
function guarded(guard: Formula, cases: readonly Case[]): Case[] {
  if (guard.kind === 'true') return [...cases];
  if (guard.kind === 'false') return [];
  return cases.map((c) => ({ guard: F.and(guard, c.guard), value: c.value })).filter((c) => c.guard.kind !== 'false');
}

/** C's truncating division and remainder of constants. */
export function foldDivision(op: '/' | '%', a: bigint, k: bigint): bigint {
  return op === '/' ? a / k : a % k; // bigint `/` truncates toward zero and `%` follows the dividend, as in C
}

/** Guarded values of a pure expression. */
export function valueCases(e: Expr, vars: VariableReader, divisions: DivisionValues): Case[] {
  switch (e.kind) {
    case 'int':
      if (e.unsignedSuffix) rejectExpression(e);
      return [{ guard: F.TRUE, value: L.constant(e.value) }];
    case 'ident':
      return [{ guard: F.TRUE, value: vars.read(e.name, e.pos) }];
    case 'unary':
      switch (e.op) {
        case '-':
          return valueCases(e.arg, vars, divisions).map((c) => ({ guard: c.guard, value: L.negate(c.value) }));
        case '+':
          return valueCases(e.arg, vars, divisions);
        case '!':
          return boolCases(formulaOf(e, vars, divisions));
        default:
          return rejectExpression(e);
      }
    case 'binary': {
      const op = e.op;
      if (op === '+' || op === '-') {
        const a = valueCases(e.left, vars, divisions);
        const b = valueCases(e.right, vars, divisions);
        return product(a, b, op === '+' ? L.add : L.sub);
      }
      if (op === '*') {
        const a = valueCases(e.left, vars, divisions);
        const b = valueCases(e.right, vars, divisions);
        return product(a, b, (x, y) => multiply(x, y, e.opPos));
      }
      if (op === '/' || op === '%') {
        const k = constantDivisor(valueCases(e.right, vars, divisions), e.opPos, op);
        const a = valueCases(e.left, vars, divisions);
        if (a.every((c) => L.isConstant(c.value))) {
          return a.map((c) => ({ guard: c.guard, value: L.constant(foldDivision(op, c.value.constant, k)) }));
        }
        const value = divisions.get(e);
        if (!value) throw new Error('internal: division not prepared');
        return [{ guard: F.TRUE, value }];
      }
      if (isComparison(op) || op === '&&' || op === '||') return boolCases(formulaOf(e, vars, divisions));
      return rejectExpression(e);
    }
    case 'cond': {
      const test = formulaOf(e.test, vars, divisions);
      if (test.kind === 'true') return valueCases(e.then, vars, divisions);
      if (test.kind === 'false') return valueCases(e.else, vars, divisions);
      return limit([
        ...guarded(test, valueCases(e.then, vars, divisions)),
        ...guarded(negate(test), valueCases(e.else, vars, divisions)),
      ]);
    }
    case 'comma':
      valueCases(e.left, vars, divisions); // checked, value unused (no side effects)
      return valueCases(e.right, vars, divisions);
    case 'cast': {
      const target = castTarget(e.type, e.pos);
      if (target === 'void') voidValueError(e.pos);
      if (target === 'bool') return boolCases(formulaOf(e.arg, vars, divisions));
      return valueCases(e.arg, vars, divisions);
    }
    case 'call':
    case 'assign':
    case 'incdec':
      throw new Error(`internal: valueCases on impure ${e.kind}`);
    default:
      return rejectExpression(e);
  }
}

/** The truth of a pure expression used as a condition (C: non-zero is true). */
export function formulaOf(e: Expr, vars: VariableReader, divisions: DivisionValues): Formula {
  switch (e.kind) {
    case 'unary':
      if (e.op === '!') return negate(formulaOf(e.arg, vars, divisions));
      break;
    case 'binary':
      if (e.op === '&&') return F.and(formulaOf(e.left, vars, divisions), formulaOf(e.right, vars, divisions));
      if (e.op === '||') return F.or(formulaOf(e.left, vars, divisions), formulaOf(e.right, vars, divisions));
      if (isComparison(e.op)) {
        const op = e.op;
        const a = valueCases(e.left, vars, divisions);
        const b = valueCases(e.right, vars, divisions);
        const disjuncts: Formula[] = [];
        for (const x of a) for (const y of b) disjuncts.push(F.and(x.guard, y.guard, F.compare(x.value, op, y.value)));
        return F.or(...disjuncts);
      }
      break;
    case 'cond': {
      const test = formulaOf(e.test, vars, divisions);
      const then = formulaOf(e.then, vars, divisions);
      const otherwise = formulaOf(e.else, vars, divisions);
      if (test.kind === 'true') return then;
      if (test.kind === 'false') return otherwise;
      return F.or(F.and(test, then), F.and(negate(test), otherwise));
    }
    case 'comma':
      valueCases(e.left, vars, divisions);
      return formulaOf(e.right, vars, divisions);
    case 'cast':
      if (castTarget(e.type, e.pos) !== 'void') return formulaOf(e.arg, vars, divisions);
      return voidValueError(e.pos);
    default:
      break;
  }
  const cases = valueCases(e, vars, divisions);
  return F.or(...cases.map((c) => F.and(c.guard, F.not(F.eqZero(c.value)))));
}

/**
 * Division and modulo nodes of a pure expression, innermost first, with their constant divisor and
 * the guarded values of their dividend (computed with the already-prepared inner divisions).
 * Divisions whose dividend is constant fold and are not listed.
 */
export function divisionsToPrepare(
  e: Expr,
  vars: VariableReader,
  divisions: Map<Expr, Linear>,
  prepare: (node: Expr & { kind: 'binary' }, dividend: Case[], divisor: bigint) => Linear,
): void {
  const visit = (x: Expr): void => {
    switch (x.kind) {
      case 'unary':
      case 'cast':
        visit(x.arg);
        return;
      case 'comma':
        visit(x.left);
        visit(x.right);
        return;
      case 'cond':
        visit(x.test);
        visit(x.then);
        visit(x.else);
        return;
      case 'binary':
        visit(x.left);
        visit(x.right);
        if (x.op === '/' || x.op === '%') {
          const k = constantDivisor(valueCases(x.right, vars, divisions), x.opPos, x.op);
          const dividend = valueCases(x.left, vars, divisions);
          if (!dividend.every((c) => L.isConstant(c.value))) divisions.set(x, prepare(x, dividend, k));
        }
        return;
      default:
        return;
    }
  };
  visit(e);
}
