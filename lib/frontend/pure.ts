// Side-effect-free typed expressions translated without emitting branches: a value becomes a list of
// guarded linear values (`c ? a : b` is [(c, a), (!c, b)]; a comparison used as a value is
// [(cmp, 1), (!cmp, 0)]; an unsigned `x + y` is [(x + y <= UINT_MAX, x + y), (x + y > UINT_MAX,
// x + y - 2^32)]), a condition becomes one formula. Guards of a case list are mutually exclusive and
// exhaustive by construction, so a consumer may emit one assume edge per case. Quotients, and
// wrap-arounds with more possible counts than MAX_WRAP_CASES, need a fresh variable pinned by an
// assumption: the lowering prepares those first (lower-expr.ts) and passes their values in.
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { contains, convertConstant, type IntType, type Range } from './ctypes.js';
import { children, constantValue, mathRange, mayOverflow, type TExpr, type ValueExpr } from './typed.js';

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

/** A wrap-around with at most this many possible counts is spelled out as guarded cases (exact for
 * every engine, with or without integer reasoning); one with more takes a ghost count. */
const MAX_WRAP_CASES = 3;

/** Values computed before the expression, keyed by node: quotients and ghost-counted wrap-arounds. */
export type Prepared = ReadonlyMap<TExpr, Linear>;

/** The range of counts k with `value - 2^N k` in t's range, over values in `range`. */
export function wrapCounts(range: Range, t: IntType): { readonly lo: bigint; readonly hi: bigint } {
  const m = 1n << BigInt(t.bits);
  return { lo: ceilDiv(range.lo - t.range.hi, m), hi: floorDiv(range.hi - t.range.lo, m) };
}

function floorDiv(a: bigint, b: bigint): bigint {
  return L.floorDiv(a, b);
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return L.ceilDiv(a, b);
}

/** Whether the node's C value is its mathematical value reduced into its type (a conversion to a
 * non-_Bool type or an unsigned operation that can leave the type's range). */
export function wraps(t: ValueExpr): boolean {
  if (t.type.isBool) return false;
  switch (t.kind) {
    case 'convert':
      return !contains(t.type.range, mathRange(t));
    case 'arith':
    case 'neg':
    case 'shift':
      return !t.type.signed && !contains(t.type.range, mathRange(t));
    default:
      return false;
  }
}

/** What a node needs before a case list can state its value: nothing, or a fresh pinned variable. */
export function preparation(t: ValueExpr): 'none' | 'quotient' | 'wrap' {
  if (t.kind === 'arith' && (t.op === '/' || t.op === '%')) {
    const k = constantValue(t.right)!;
    if (k !== 1n && k !== -1n) return 'quotient';
  }
  if (t.kind === 'shift' && t.op === '>>' && t.amount > 0n) return 'quotient';
  if (wraps(t)) {
    const k = wrapCounts(mathRange(t), t.type);
    if (k.hi - k.lo + 1n > BigInt(MAX_WRAP_CASES)) return 'wrap';
  }
  return 'none';
}

/** Some node of t is a wrap-around spelled out as guarded cases. As a condition such an expression
 * would be a disjunction over every combination of the cases (whose CNF, when asserted, grows
 * exponentially): conditions compute the wrapped operands into temporaries first instead. */
export function splitsOnWrap(t: TExpr): boolean {
  if (t.type !== null && wraps(t as ValueExpr) && preparation(t as ValueExpr) === 'none') return true;
  return children(t).some(splitsOnWrap);
}

/** Some node of t is a signed operation with an overflow check: evaluating t emits that check, which
 * must only run where C evaluates t (not on the unevaluated side of `&&`, `||`, `?:`). */
export function checksOverflow(t: TExpr): boolean {
  if (t.type !== null && (mayOverflow(t as ValueExpr) || (t.kind === 'shift' && t.op === '<<' && t.type.signed) || (t.kind === 'arith' && t.op === '%' && t.type.signed))) return true;
  return children(t).some(checksOverflow);
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

function mapValues(cases: readonly Case[], fn: (v: Linear) => Linear): Case[] {
  return cases.map((c) => ({ guard: c.guard, value: fn(c.value) }));
}

export function boolCases(f: Formula): Case[] {
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

/**
 * `e` reduced into t's range, case by case: the count k (r = e - 2^N k) ranges over `counts`; the
 * first case has no lower bound on e and the last none above, so the cases stay exhaustive for any
 * integer e (values no C run has only get some value, never block a run of the model).
 */
export function wrapCases(cases: readonly Case[], counts: { lo: bigint; hi: bigint }, t: IntType): Case[] {
  const m = 1n << BigInt(t.bits);
  const out: Case[] = [];
  for (const c of cases) {
    if (L.isConstant(c.value)) {
      out.push({ guard: c.guard, value: L.constant(convertConstant(c.value.constant, t)) });
      continue;
    }
    for (let k = counts.lo; k <= counts.hi; k++) {
      const above = k === counts.lo ? F.TRUE : F.geqZero(L.addConstant(c.value, -(t.range.lo + m * k)));
      const below = k === counts.hi ? F.TRUE : F.geqZero(L.addConstant(L.negate(c.value), t.range.hi + m * k));
      const guard = F.and(c.guard, above, below);
      if (guard.kind !== 'false') out.push({ guard, value: L.addConstant(c.value, -m * k) });
    }
  }
  return limit(out);
}

/** Case lists and formulas of pure typed expressions, given the prepared values. */
export class PureEvaluator {
  private readonly memo = new Map<TExpr, Case[]>();

  constructor(private readonly prepared: Prepared) {}

  /** The node's C value. */
  cases(t: TExpr): Case[] {
    const hit = this.memo.get(t);
    if (hit) return hit;
    const v = t as ValueExpr;
    let out: Case[];
    if (v.type === null) throw new Error('internal: value of a void expression');
    if (v.kind === 'convert' && v.type.isBool) out = boolCases(this.formula(v.arg));
    else if (wraps(v)) {
      const ghost = this.prepared.get(v);
      out = ghost !== undefined && preparation(v) === 'wrap'
        ? [{ guard: F.TRUE, value: ghost }]
        : wrapCases(this.mathCases(v), wrapCounts(mathRange(v), v.type), v.type);
    } else out = this.mathCases(v);
    this.memo.set(t, out);
    return out;
  }

  /** The node's mathematical value, before any wrap-around (for a signed operation: what its overflow
   * check bounds). */
  mathCases(t: ValueExpr): Case[] {
    switch (t.kind) {
      case 'const':
        return [{ guard: F.TRUE, value: L.constant(t.value) }];
      case 'var':
        return [{ guard: F.TRUE, value: L.variable(t.ir) }];
      case 'convert':
        return this.cases(t.arg);
      case 'neg':
        return mapValues(this.cases(t.arg), L.negate);
      case 'bitnot':
        return mapValues(this.cases(t.arg), (v) => (t.type.signed ? L.addConstant(L.negate(v), -1n) : L.addConstant(L.negate(v), t.type.range.hi)));
      case 'not':
        return boolCases(negate(this.formula(t.arg)));
      case 'arith': {
        if (t.op === '/' || t.op === '%') {
          const k = constantValue(t.right)!;
          if (k === 1n || k === -1n) return t.op === '/' ? mapValues(this.cases(t.left), (v) => L.scale(v, k)) : [{ guard: F.TRUE, value: L.constant(0n) }];
          return [{ guard: F.TRUE, value: this.prepared.get(t) ?? missing(t) }];
        }
        const a = this.cases(t.left);
        const b = this.cases(t.right);
        if (t.op === '+') return product(a, b, L.add);
        if (t.op === '-') return product(a, b, L.sub);
        return product(a, b, (x, y) => (L.isConstant(x) ? L.scale(y, x.constant) : L.scale(x, y.constant)));
      }
      case 'shift': {
        if (t.op === '<<') return mapValues(this.cases(t.left), (v) => L.scale(v, 1n << t.amount));
        if (t.amount === 0n) return this.cases(t.left);
        return [{ guard: F.TRUE, value: this.prepared.get(t) ?? missing(t) }];
      }
      case 'compare':
      case 'logic':
        return boolCases(this.formula(t));
      case 'cond': {
        const test = this.formula(t.test);
        if (test.kind === 'true') return this.cases(t.then);
        if (test.kind === 'false') return this.cases(t.else);
        return limit([...guarded(test, this.cases(t.then)), ...guarded(negate(test), this.cases(t.else))]);
      }
      case 'comma':
        return this.cases(t.right);
      default:
        throw new Error(`internal: cases of impure ${t.kind}`);
    }
  }

  /** The truth of a pure expression used as a condition (C: non-zero is true). */
  formula(t: TExpr): Formula {
    switch (t.kind) {
      case 'not':
        return negate(this.formula(t.arg));
      case 'logic': {
        const a = this.formula(t.left);
        const b = this.formula(t.right);
        return t.op === '&&' ? F.and(a, b) : F.or(a, b);
      }
      case 'compare': {
        const a = this.cases(t.left);
        const b = this.cases(t.right);
        const disjuncts: Formula[] = [];
        for (const x of a) for (const y of b) disjuncts.push(F.and(x.guard, y.guard, F.compare(x.value, t.op, y.value)));
        return F.or(...disjuncts);
      }
      case 'cond': {
        const test = this.formula(t.test);
        const then = this.formula(t.then);
        const otherwise = this.formula(t.else);
        if (test.kind === 'true') return then;
        if (test.kind === 'false') return otherwise;
        return F.or(F.and(test, then), F.and(negate(test), otherwise));
      }
      case 'comma':
        return this.formula(t.right);
      case 'convert':
        // A conversion keeps the truth of its operand when it keeps the value, and to _Bool always.
        if (t.type.isBool || !wraps(t)) return this.formula(t.arg);
        break;
      default:
        break;
    }
    const cases = this.cases(t);
    return F.or(...cases.map((c) => F.and(c.guard, F.not(F.eqZero(c.value)))));
  }
}

function missing(t: TExpr): never {
  throw new Error(`internal: ${t.kind} at ${t.pos.line}:${t.pos.col} was not prepared`);
}
