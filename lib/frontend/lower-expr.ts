// Lowering of typed expressions into CFG edges at the context's cursor, in three modes: as a value (a
// linear expression, statements emitted for side effects, calls, quotients and wrap-arounds), as a
// condition (edges to a true and a false target) and for effect only (expression statements,
// for-steps). Side-effect-free parts go through ./pure.ts so that a branch gets one assume edge with
// the whole formula. Every signed operation that can leave its type's range gets an overflow check
// first (FunctionContext.overflowCheck): a premise for reachability, an assertion for no-overflow.
import type { SourcePos } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { FunctionContext, VarSymbol } from './context.js';
import { contains, convertConstant, type IntType, type Range } from './ctypes.js';
import { lowerCall } from './lower-call.js';
import { negate, preparation, PureEvaluator, splitsOnWrap, TooManyCases, wrapCases, wrapCounts, wraps, type Case } from './pure.js';
import { constantValue, isPure, mathRange, mayOverflow, valueRange, voidValueError, type TExpr, type ValueExpr } from './typed.js';

// ---------------------------------------------------------------------------------------------------
// Pure expressions

/**
 * Emits what a pure expression needs before its cases can be stated, innermost first: the overflow
 * check of each signed operation (under the condition that the operation is evaluated at all: the
 * right of `&&`, an arm of `?:`), quotients, and ghost-counted wrap-arounds (those always have a
 * value, so they are emitted whatever the conditions). Returns the evaluator over those values, or
 * null when the expression splits into too many cases (the caller then branches).
 */
function preparePure(ctx: FunctionContext, t: TExpr): PureEvaluator | null {
  const prepared = new Map<TExpr, Linear>();
  const evaluator = new PureEvaluator(prepared);
  const visit = (x: TExpr, cond: Formula): void => {
    switch (x.kind) {
      case 'logic': {
        visit(x.left, cond);
        const left = evaluator.formula(x.left);
        visit(x.right, F.and(cond, x.op === '&&' ? left : negate(left)));
        break;
      }
      case 'cond': {
        visit(x.test, cond);
        const test = evaluator.formula(x.test);
        visit(x.then, F.and(cond, test));
        visit(x.else, F.and(cond, negate(test)));
        break;
      }
      case 'convert':
      case 'neg':
      case 'bitnot':
      case 'not':
      case 'discard':
        visit(x.arg, cond);
        break;
      case 'shift':
        visit(x.left, cond);
        break;
      case 'arith':
      case 'compare':
      case 'comma':
        visit(x.left, cond);
        visit(x.right, cond);
        break;
      default:
        break;
    }
    if (x.type === null) return;
    const v = x as ValueExpr;
    const check = overflowCondition(v, (y) => (y === v ? evaluator.mathCases(v) : evaluator.cases(y)));
    if (check) ctx.overflowCheck(F.implies(cond, check), opPos(v));
    switch (preparation(v)) {
      case 'quotient': {
        const dividend = materialise(ctx, evaluator.cases(v.kind === 'shift' ? v.left : (v as ValueExpr & { kind: 'arith' }).left), v.pos);
        prepared.set(v, quotient(ctx, v, dividend));
        break;
      }
      case 'wrap':
        prepared.set(v, ghostWrap(ctx, materialise(ctx, evaluator.mathCases(v), v.pos), v.type, opPos(v)));
        break;
      case 'none':
        break;
    }
  };
  try {
    visit(t, F.TRUE);
    return evaluator;
  } catch (err) {
    if (err instanceof TooManyCases) return null;
    throw err;
  }
}

function opPos(t: ValueExpr): SourcePos {
  return t.kind === 'arith' || t.kind === 'shift' || t.kind === 'compare' ? t.opPos : t.pos;
}

/** Guarded values of a pure expression, what it needs emitted first; null if it splits too much. */
function pureCases(ctx: FunctionContext, t: TExpr): Case[] | null {
  const evaluator = preparePure(ctx, t);
  if (!evaluator) return null;
  try {
    return evaluator.cases(t);
  } catch (err) {
    if (err instanceof TooManyCases) return null;
    throw err;
  }
}

export function pureFormula(ctx: FunctionContext, t: TExpr): Formula | null {
  const evaluator = preparePure(ctx, t);
  if (!evaluator) return null;
  try {
    return evaluator.formula(t);
  } catch (err) {
    if (err instanceof TooManyCases) return null;
    throw err;
  }
}

/**
 * The condition under which a signed operation stays in its type's range, over its mathematical
 * value's cases (only the bounds it can cross); null when it cannot overflow. A left shift is also
 * undefined for a negative operand, and `INT_MIN % -1` though its value would be 0 (C11 6.5.5p6, 6.5.7p4).
 */
function overflowCondition(t: ValueExpr, casesOf: (t: ValueExpr) => Case[]): Formula | null {
  const type = t.type;
  if (!type.signed) return null;
  if (t.kind === 'arith' && t.op === '%' && constantValue(t.right) === -1n) {
    if (valueRange(t.left as ValueExpr).lo > type.range.lo) return null;
    return F.and(...casesOf(t.left as ValueExpr).map((c) => F.implies(c.guard, F.compare(c.value, '!=', L.constant(type.range.lo)))));
  }
  const negativeShift = t.kind === 'shift' && t.op === '<<' && valueRange(t.left as ValueExpr).lo < 0n;
  if (!mayOverflow(t) && !negativeShift) return null;
  const m = mathRange(t);
  const parts = casesOf(t).map((c) =>
    F.implies(c.guard, F.and(
      m.hi > type.range.hi ? F.compare(c.value, '<=', L.constant(type.range.hi)) : F.TRUE,
      m.lo < type.range.lo ? F.compare(c.value, '>=', L.constant(type.range.lo)) : F.TRUE,
    )));
  if (negativeShift) {
    parts.push(...casesOf((t as ValueExpr & { kind: 'shift' }).left as ValueExpr).map((c) => F.implies(c.guard, F.compare(c.value, '>=', L.constant(0n)))));
  }
  return F.and(...parts);
}

/** A single linear value for a case list (a temporary assigned per case when there are several). */
function materialise(ctx: FunctionContext, cases: readonly Case[], pos: SourcePos): Linear {
  if (cases.length === 1 && cases[0]!.guard.kind === 'true') return cases[0]!.value;
  const t = ctx.temp();
  assignCases(ctx, t, cases, pos);
  return L.variable(t);
}

/** `target := value_i` under guard_i, one assume edge per case (the guards are exclusive and exhaustive). */
function assignCases(ctx: FunctionContext, target: string, cases: readonly Case[], pos: SourcePos): void {
  if (cases.length === 1 && cases[0]!.guard.kind === 'true') {
    ctx.emit({ kind: 'assign', target, expr: cases[0]!.value }, pos);
    return;
  }
  const from = ctx.here();
  const join = ctx.newLocation();
  for (const c of cases) {
    const branch = ctx.newLocation();
    ctx.edge(from, branch, { kind: 'assume', cond: c.guard }, pos);
    ctx.edge(branch, join, { kind: 'assign', target, expr: c.value }, pos);
  }
  ctx.cur = join;
}

/**
 * The quotient node's value (`e / k`, `e % k`, `e >> c`): a fresh q, a ghost havoc, and one assume.
 * Division truncates toward zero and splits on the sign of e: `e >= 0 && m*t <= e <= m*t + m - 1 ||
 * e < 0 && m*t - m + 1 <= e <= m*t`, where m = |k| and t = sign(k)*q; the remainder is `e - k*q`.
 * A right shift by c is floor division by 2^c (gcc shifts negative values arithmetically).
 */
function quotient(ctx: FunctionContext, t: ValueExpr, e: Linear): Linear {
  const q = ctx.temp();
  if (t.kind === 'shift') {
    const p = 1n << t.amount;
    ctx.emit({ kind: 'havoc', target: q, ghost: true }, t.opPos);
    const pq = L.variable(q, p);
    ctx.emit({ kind: 'assume', cond: F.and(F.geqZero(L.sub(e, pq)), F.geqZero(L.addConstant(L.sub(pq, e), p - 1n))) }, t.opPos);
    return L.variable(q);
  }
  const node = t as ValueExpr & { kind: 'arith' };
  const k = constantValue(node.right)!;
  const m = k < 0n ? -k : k;
  const mt = L.variable(q, k < 0n ? -m : m);
  ctx.emit({ kind: 'havoc', target: q, ghost: true }, node.opPos);
  ctx.emit({ kind: 'assume', cond: F.truncatedMultiple(e, mt, m) }, node.opPos);
  return node.op === '/' ? L.variable(q) : L.sub(e, L.variable(q, k));
}

/** `e` reduced into t's range with a ghost count k: `t.lo <= e - 2^N k <= t.hi` pins k. */
function ghostWrap(ctx: FunctionContext, e: Linear, t: IntType, pos: SourcePos): Linear {
  if (L.isConstant(e)) return L.constant(convertConstant(e.constant, t));
  const k = ctx.temp();
  const r = L.sub(e, L.variable(k, 1n << BigInt(t.bits)));
  ctx.emit({ kind: 'havoc', target: k, ghost: true }, pos);
  ctx.emit({ kind: 'assume', cond: F.and(F.geqZero(L.addConstant(r, -t.range.lo)), F.geqZero(L.addConstant(L.negate(r), t.range.hi))) }, pos);
  return r;
}

/** A computed value `e` (in `range`) reduced into t's range: guarded cases or a ghost count. */
function wrapValue(ctx: FunctionContext, e: Linear, range: Range, t: IntType, pos: SourcePos): Linear {
  if (L.isConstant(e)) return L.constant(convertConstant(e.constant, t));
  if (contains(t.range, range)) return e;
  const counts = wrapCounts(range, t);
  if (counts.hi - counts.lo + 1n > 3n) return ghostWrap(ctx, e, t, pos);
  return materialise(ctx, wrapCases([{ guard: F.TRUE, value: e }], counts, t), pos);
}

// ---------------------------------------------------------------------------------------------------
// Conditions

/** Two exclusive, exhaustive edges from the cursor: assume(f) to `yes`, assume(!f) to `no`. */
export function branch(ctx: FunctionContext, f: Formula, yes: number, no: number, pos: SourcePos): void {
  const from = ctx.here();
  if (f.kind === 'true') ctx.edge(from, yes, { kind: 'skip' }, pos);
  else if (f.kind === 'false') ctx.edge(from, no, { kind: 'skip' }, pos);
  else {
    ctx.edge(from, yes, { kind: 'assume', cond: f }, pos);
    ctx.edge(from, no, { kind: 'assume', cond: negate(f) }, pos);
  }
  ctx.cur = null;
}

/** Edges from the cursor to `yes` when t is non-zero and to `no` otherwise; the cursor is unset after. */
export function lowerCondition(ctx: FunctionContext, t: TExpr, yes: number, no: number): void {
  if (t.type === null) voidValueError(t.pos);
  if (isPure(t) && !splitsOnWrap(t)) {
    const f = pureFormula(ctx, t);
    if (f) {
      branch(ctx, f, yes, no, t.pos);
      return;
    }
  }
  switch (t.kind) {
    case 'not':
      lowerCondition(ctx, t.arg, no, yes);
      return;
    case 'logic': {
      const middle = ctx.newLocation();
      if (t.op === '&&') lowerCondition(ctx, t.left, middle, no);
      else lowerCondition(ctx, t.left, yes, middle);
      ctx.cur = middle;
      lowerCondition(ctx, t.right, yes, no);
      return;
    }
    case 'compare': {
      const [a, b] = lowerOperands(ctx, [t.left, t.right]);
      branch(ctx, F.compare(a!, t.op, b!), yes, no, t.pos);
      return;
    }
    case 'cond': {
      const thenLoc = ctx.newLocation();
      const elseLoc = ctx.newLocation();
      lowerCondition(ctx, t.test, thenLoc, elseLoc);
      ctx.cur = thenLoc;
      lowerCondition(ctx, t.then, yes, no);
      ctx.cur = elseLoc;
      lowerCondition(ctx, t.else, yes, no);
      return;
    }
    case 'comma':
      lowerEffect(ctx, t.left);
      lowerCondition(ctx, t.right, yes, no);
      return;
    case 'convert':
      if (t.type.isBool || !wraps(t)) {
        lowerCondition(ctx, t.arg, yes, no);
        return;
      }
      break;
    default:
      break;
  }
  const v = lowerValue(ctx, t);
  branch(ctx, F.not(F.eqZero(v)), yes, no, t.pos);
}

// ---------------------------------------------------------------------------------------------------
// Values

/** The value of t as a linear expression over variables that hold at the cursor afterwards. */
export function lowerValue(ctx: FunctionContext, t: TExpr): Linear {
  if (t.type === null) voidValueError(t.pos);
  if (isPure(t)) {
    const cases = pureCases(ctx, t);
    if (cases) return materialise(ctx, cases, t.pos);
  }
  const v = t as ValueExpr;
  switch (v.kind) {
    case 'const':
      return L.constant(v.value);
    case 'var':
      return L.variable(v.ir);
    case 'convert': {
      if (v.type.isBool) return booleanValue(ctx, v.arg);
      const a = lowerValue(ctx, v.arg);
      return wrapValue(ctx, a, valueRange(v.arg as ValueExpr), v.type, v.pos);
    }
    case 'neg':
    case 'bitnot': {
      const a = lowerValue(ctx, v.arg);
      const m = v.kind === 'neg' ? L.negate(a) : v.type.signed ? L.addConstant(L.negate(a), -1n) : L.addConstant(L.negate(a), v.type.range.hi);
      return finishOperation(ctx, v, m);
    }
    case 'not':
    case 'compare':
    case 'logic':
      return booleanValue(ctx, v);
    case 'arith': {
      if (v.op === '/' || v.op === '%') {
        const a = lowerValue(ctx, v.left);
        const k = constantValue(v.right)!;
        checkOverflow(ctx, v, L.scale(a, k === -1n ? -1n : 1n), a);
        if (k === 1n || k === -1n) return v.op === '/' ? L.scale(a, k) : L.constant(0n);
        return quotient(ctx, v, a);
      }
      const [a, b] = lowerOperands(ctx, [v.left, v.right]);
      const m = v.op === '+' ? L.add(a!, b!) : v.op === '-' ? L.sub(a!, b!) : L.isConstant(a!) ? L.scale(b!, a!.constant) : L.scale(a!, b!.constant);
      return finishOperation(ctx, v, m);
    }
    case 'shift': {
      const a = lowerValue(ctx, v.left);
      if (v.op === '>>') return v.amount === 0n ? a : quotient(ctx, v, a);
      return finishOperation(ctx, v, L.scale(a, 1n << v.amount), a);
    }
    case 'assign':
      lowerInto(ctx, v.target, v.value, v.pos);
      return L.variable(v.target.ir);
    case 'incdec':
      return lowerIncDec(ctx, v, true);
    case 'cond': {
      const t2 = ctx.temp();
      const sym: VarSymbol = { kind: 'var', ir: t2, type: v.type };
      lowerConditionalInto(ctx, v, (arm) => lowerInto(ctx, sym, arm, arm.pos));
      return L.variable(t2);
    }
    case 'comma':
      lowerEffect(ctx, v.left);
      return lowerValue(ctx, v.right);
    case 'call':
      return lowerCall(ctx, v, null, true)!;
    case 'nondet': {
      const t2 = ctx.temp();
      ctx.havocValue(t2, v.type, v.pos);
      return L.variable(t2);
    }
  }
}

/** The result of a non-pure `-`, `~`, `+`, `-`, `*` or `<<` with mathematical value m (`operand`: the
 * shifted value): checked for overflow when signed, reduced into the type when unsigned. */
function finishOperation(ctx: FunctionContext, t: ValueExpr, m: Linear, operand: Linear = m): Linear {
  if (t.type.signed) {
    checkOverflow(ctx, t, m, operand);
    return m;
  }
  return wrapValue(ctx, m, mathRange(t), t.type, opPos(t));
}

/** The overflow check of t, given its mathematical value m and the value of its (left) operand. */
function checkOverflow(ctx: FunctionContext, t: ValueExpr, m: Linear, operand: Linear): void {
  const check = overflowCondition(t, (x) => [{ guard: F.TRUE, value: x === t ? m : operand }]);
  if (check) ctx.overflowCheck(check, opPos(t));
}

/** 1 or 0 in a temporary, by branching on t. */
function booleanValue(ctx: FunctionContext, t: TExpr): Linear {
  const v = ctx.temp();
  assignTruth(ctx, v, t);
  return L.variable(v);
}

function assignTruth(ctx: FunctionContext, target: string, t: TExpr): void {
  const yes = ctx.newLocation();
  const no = ctx.newLocation();
  const join = ctx.newLocation();
  lowerCondition(ctx, t, yes, no);
  ctx.edge(yes, join, { kind: 'assign', target, expr: L.constant(1n) }, t.pos);
  ctx.edge(no, join, { kind: 'assign', target, expr: L.constant(0n) }, t.pos);
  ctx.cur = join;
}

/** `c ? a : b` with each arm lowered by `arm` and joined afterwards. */
function lowerConditionalInto(ctx: FunctionContext, t: TExpr & { kind: 'cond' }, arm: (armExpr: TExpr) => void): void {
  const thenLoc = ctx.newLocation();
  const elseLoc = ctx.newLocation();
  const join = ctx.newLocation();
  lowerCondition(ctx, t.test, thenLoc, elseLoc);
  ctx.cur = thenLoc;
  arm(t.then);
  ctx.jump(join, t.then.pos);
  ctx.cur = elseLoc;
  arm(t.else);
  ctx.jump(join, t.else.pos);
  ctx.cur = join;
}

/** Variables an expression may write: assignment targets, and every global if it calls a procedure. */
function mayWrite(ctx: FunctionContext, t: TExpr, into: Set<string>): Set<string> {
  if (t.kind === 'assign' || t.kind === 'incdec') into.add(t.target.ir);
  if (t.kind === 'call') for (const g of ctx.program.globalNames) into.add(g);
  switch (t.kind) {
    case 'convert':
    case 'neg':
    case 'bitnot':
    case 'not':
    case 'discard':
      return mayWrite(ctx, t.arg, into);
    case 'shift':
      return mayWrite(ctx, t.left, into);
    case 'arith':
    case 'compare':
    case 'logic':
    case 'comma':
      mayWrite(ctx, t.left, into);
      return mayWrite(ctx, t.right, into);
    case 'cond':
      mayWrite(ctx, t.test, into);
      mayWrite(ctx, t.then, into);
      return mayWrite(ctx, t.else, into);
    case 'assign':
    case 'incdec':
      return mayWrite(ctx, t.value, into);
    case 'call':
    case 'builtin':
      for (const a of t.args) mayWrite(ctx, a, into);
      return into;
    default:
      return into;
  }
}

/**
 * Values of several operands, left to right. An earlier operand's value is copied to a temporary
 * when a later operand may overwrite a variable it mentions (`x + x++`, `g + f()` with f writing g).
 */
export function lowerOperands(ctx: FunctionContext, exprs: readonly TExpr[]): Linear[] {
  const values: Linear[] = [];
  for (const e of exprs) {
    if (!isPure(e)) {
      const written = mayWrite(ctx, e, new Set());
      for (let j = 0; j < values.length; j++) {
        const v = values[j]!;
        if (L.variablesOf(v).some((x) => written.has(x))) {
          const t = ctx.temp();
          ctx.emit({ kind: 'assign', target: t, expr: v }, exprs[j]!.pos);
          values[j] = L.variable(t);
        }
      }
    }
    values.push(lowerValue(ctx, e));
  }
  return values;
}

// ---------------------------------------------------------------------------------------------------
// Assignments

/** `sym = t`, where t already has sym's type (elaboration converted it). */
export function lowerInto(ctx: FunctionContext, sym: VarSymbol, t: TExpr, pos: SourcePos): void {
  if (t.type === null) voidValueError(t.pos);
  if (t.kind === 'nondet') {
    ctx.havocValue(sym.ir, t.type, pos);
    return;
  }
  if (t.kind === 'call') {
    lowerCall(ctx, t, sym.ir, true);
    return;
  }
  if (t.kind === 'convert' && t.type.isBool) {
    assignTruth(ctx, sym.ir, t.arg);
    return;
  }
  if (isPure(t)) {
    const cases = pureCases(ctx, t);
    if (cases) {
      assignCases(ctx, sym.ir, cases, pos);
      return;
    }
  }
  if (t.kind === 'cond') {
    lowerConditionalInto(ctx, t, (arm) => lowerInto(ctx, sym, arm, arm.pos));
    return;
  }
  const v = lowerValue(ctx, t);
  ctx.emit({ kind: 'assign', target: sym.ir, expr: v }, pos);
}

/** `x++`, `++x`, `x--`, `--x`; the value (when needed) is the old value for the postfix forms. */
function lowerIncDec(ctx: FunctionContext, t: TExpr & { kind: 'incdec' }, valueNeeded: boolean): Linear {
  const x = L.variable(t.target.ir);
  let old: Linear = x;
  if (valueNeeded && !t.prefix) {
    const c = ctx.temp();
    ctx.emit({ kind: 'assign', target: c, expr: x }, t.pos);
    old = L.variable(c);
  }
  lowerInto(ctx, t.target, t.value, t.pos);
  return t.prefix ? x : old;
}

// ---------------------------------------------------------------------------------------------------
// Effects

/** Evaluates t for its side effects only. */
export function lowerEffect(ctx: FunctionContext, t: TExpr): void {
  switch (t.kind) {
    case 'assign':
      lowerInto(ctx, t.target, t.value, t.pos);
      return;
    case 'incdec':
      lowerIncDec(ctx, t, false);
      return;
    case 'call':
      lowerCall(ctx, t, null, false);
      return;
    case 'builtin':
      lowerCall(ctx, t, null, false);
      return;
    case 'nondet':
      return;
    case 'comma':
      lowerEffect(ctx, t.left);
      lowerEffect(ctx, t.right);
      return;
    case 'discard':
      lowerEffect(ctx, t.arg);
      return;
    case 'logic':
      if (!isPure(t.right)) {
        const rest = ctx.newLocation();
        const join = ctx.newLocation();
        if (t.op === '&&') lowerCondition(ctx, t.left, rest, join);
        else lowerCondition(ctx, t.left, join, rest);
        ctx.cur = rest;
        lowerEffect(ctx, t.right);
        ctx.jump(join, t.right.pos);
        ctx.cur = join;
        return;
      }
      break;
    case 'cond':
      if (t.type === null || !isPure(t.then) || !isPure(t.else)) {
        lowerConditionalInto(ctx, t, (arm) => lowerEffect(ctx, arm));
        return;
      }
      break;
    default:
      break;
  }
  if (isPure(t)) {
    // No value needed; its overflow checks (and what they need) still run.
    preparePure(ctx, t);
    return;
  }
  lowerValue(ctx, t);
}
