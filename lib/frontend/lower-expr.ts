// Lowering of expressions into CFG edges at the context's cursor, in three modes: as a value (a linear
// expression, statements emitted for side effects, calls and divisions), as a condition (edges to a
// true and a false target) and for effect only (expression statements, for-steps). Side-effect-free
// parts go through ./pure.ts so that a branch gets one assume edge with the whole formula.
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Expr } from './ast.js';
import type { FunctionContext, VarSymbol } from './context.js';
import { INT } from './ctypes.js';
import { isNondetCall, lowerCall, nondetCallRange } from './lower-call.js';
import {
  castTarget, constantDivisor, divisionsToPrepare, formulaOf, isComparison, isPure, multiply, negate, rejectExpression,
  TooManyCases, valueCases, voidValueError, type Case,
} from './pure.js';

// ---------------------------------------------------------------------------------------------------
// Pure expressions

/** Guarded values of a pure expression, its divisions emitted first; null if it splits too much. */
function pureCases(ctx: FunctionContext, e: Expr): Case[] | null {
  try {
    return valueCases(e, ctx, prepareDivisions(ctx, e));
  } catch (err) {
    if (err instanceof TooManyCases) return null;
    throw err;
  }
}

export function pureFormula(ctx: FunctionContext, e: Expr): Formula | null {
  try {
    return formulaOf(e, ctx, prepareDivisions(ctx, e));
  } catch (err) {
    if (err instanceof TooManyCases) return null;
    throw err;
  }
}

function prepareDivisions(ctx: FunctionContext, e: Expr): Map<Expr, Linear> {
  const divisions = new Map<Expr, Linear>();
  divisionsToPrepare(e, ctx, divisions, (node, dividend, k) => {
    const value = materialise(ctx, dividend, node.pos);
    return divide(ctx, value, k, node.op as '/' | '%', node.opPos);
  });
  return divisions;
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
 * `e / k` (or `e % k`) with C's truncation toward zero: a fresh q, havoc, and one assume that splits
 * on the sign of e: `e >= 0 && m*t <= e <= m*t + m - 1 || e < 0 && m*t - m + 1 <= e <= m*t`, where
 * m = |k| and t = sign(k)*q is the quotient by m. The remainder is `e - k*q`.
 */
function divide(ctx: FunctionContext, e: Linear, k: bigint, op: '/' | '%', pos: SourcePos): Linear {
  if (k === 1n || k === -1n) return op === '/' ? L.scale(e, k) : L.constant(0n);
  const q = ctx.temp();
  const m = k < 0n ? -k : k;
  const mt = L.variable(q, k < 0n ? -m : m);
  ctx.emit({ kind: 'havoc', target: q }, pos);
  ctx.emit({ kind: 'assume', cond: F.truncatedMultiple(e, mt, m) }, pos);
  return op === '/' ? L.variable(q) : L.sub(e, L.variable(q, k));
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

/** Edges from the cursor to `yes` when e is non-zero and to `no` otherwise; the cursor is unset after. */
export function lowerCondition(ctx: FunctionContext, e: Expr, yes: number, no: number): void {
  if (isPure(e)) {
    const f = pureFormula(ctx, e);
    if (f) {
      branch(ctx, f, yes, no, e.pos);
      return;
    }
  }
  switch (e.kind) {
    case 'unary':
      if (e.op === '!') {
        lowerCondition(ctx, e.arg, no, yes);
        return;
      }
      break;
    case 'binary':
      if (e.op === '&&' || e.op === '||') {
        const middle = ctx.newLocation();
        if (e.op === '&&') lowerCondition(ctx, e.left, middle, no);
        else lowerCondition(ctx, e.left, yes, middle);
        ctx.cur = middle;
        lowerCondition(ctx, e.right, yes, no);
        return;
      }
      if (isComparison(e.op)) {
        const [a, b] = lowerOperands(ctx, [e.left, e.right]);
        branch(ctx, F.compare(a!, e.op, b!), yes, no, e.pos);
        return;
      }
      break;
    case 'cond': {
      const thenLoc = ctx.newLocation();
      const elseLoc = ctx.newLocation();
      lowerCondition(ctx, e.test, thenLoc, elseLoc);
      ctx.cur = thenLoc;
      lowerCondition(ctx, e.then, yes, no);
      ctx.cur = elseLoc;
      lowerCondition(ctx, e.else, yes, no);
      return;
    }
    case 'comma':
      lowerEffect(ctx, e.left);
      lowerCondition(ctx, e.right, yes, no);
      return;
    case 'cast':
      if (castTarget(e.type, e.pos) === 'void') voidValueError(e.pos);
      lowerCondition(ctx, e.arg, yes, no);
      return;
    default:
      break;
  }
  const v = lowerValue(ctx, e);
  branch(ctx, F.not(F.eqZero(v)), yes, no, e.pos);
}

// ---------------------------------------------------------------------------------------------------
// Values

/** The value of e as a linear expression over variables that hold at the cursor afterwards. */
export function lowerValue(ctx: FunctionContext, e: Expr): Linear {
  if (isPure(e)) {
    const cases = pureCases(ctx, e);
    if (cases) return materialise(ctx, cases, e.pos);
  }
  switch (e.kind) {
    case 'unary':
      if (e.op === '-') return L.negate(lowerValue(ctx, e.arg));
      if (e.op === '+') return lowerValue(ctx, e.arg);
      if (e.op === '!') return booleanValue(ctx, e);
      return rejectExpression(e);
    case 'binary': {
      const op = e.op;
      if (op === '+' || op === '-' || op === '*') {
        const [a, b] = lowerOperands(ctx, [e.left, e.right]);
        if (op === '+') return L.add(a!, b!);
        if (op === '-') return L.sub(a!, b!);
        return multiply(a!, b!, e.opPos);
      }
      if (op === '/' || op === '%') {
        const k = divisorOf(ctx, e.right, e.opPos, op);
        const a = lowerValue(ctx, e.left);
        if (L.isConstant(a)) return L.constant(op === '/' ? a.constant / k : a.constant % k);
        return divide(ctx, a, k, op, e.opPos);
      }
      if (isComparison(op) || op === '&&' || op === '||') return booleanValue(ctx, e);
      return rejectExpression(e);
    }
    case 'assign':
      return lowerAssignment(ctx, e);
    case 'incdec':
      return lowerIncDec(ctx, e, true);
    case 'cond': {
      const t = ctx.temp();
      lowerConditionalInto(ctx, e, (branchExpr) => lowerInto(ctx, { kind: 'var', ir: t, type: INT }, branchExpr, branchExpr.pos));
      return L.variable(t);
    }
    case 'comma':
      lowerEffect(ctx, e.left);
      return lowerValue(ctx, e.right);
    case 'call':
      return lowerCall(ctx, e, null, true)!;
    case 'cast': {
      const target = castTarget(e.type, e.pos);
      if (target === 'void') voidValueError(e.pos);
      if (target === 'bool') return booleanValue(ctx, e.arg);
      return lowerValue(ctx, e.arg);
    }
    default:
      return rejectExpression(e);
  }
}

/** The divisor of `/`/`%`: must be a pure expression that folds to a non-zero constant. */
function divisorOf(ctx: FunctionContext, e: Expr, opPos: SourcePos, op: string): bigint {
  if (!isPure(e)) throw unsupported(`${op === '/' ? 'division' : 'modulo'} by a non-constant expression`, opPos);
  const cases = valueCases(e, ctx, new Map());
  return constantDivisor(cases, opPos, op);
}

/** 1 or 0 in a temporary, by branching on e. */
function booleanValue(ctx: FunctionContext, e: Expr): Linear {
  const t = ctx.temp();
  assignTruth(ctx, t, e);
  return L.variable(t);
}

function assignTruth(ctx: FunctionContext, target: string, e: Expr): void {
  const yes = ctx.newLocation();
  const no = ctx.newLocation();
  const join = ctx.newLocation();
  lowerCondition(ctx, e, yes, no);
  ctx.edge(yes, join, { kind: 'assign', target, expr: L.constant(1n) }, e.pos);
  ctx.edge(no, join, { kind: 'assign', target, expr: L.constant(0n) }, e.pos);
  ctx.cur = join;
}

/** `c ? a : b` with each branch lowered by `arm` and joined afterwards. */
function lowerConditionalInto(ctx: FunctionContext, e: Expr & { kind: 'cond' }, arm: (branchExpr: Expr) => void): void {
  const thenLoc = ctx.newLocation();
  const elseLoc = ctx.newLocation();
  const join = ctx.newLocation();
  lowerCondition(ctx, e.test, thenLoc, elseLoc);
  ctx.cur = thenLoc;
  arm(e.then);
  ctx.jump(join, e.then.pos);
  ctx.cur = elseLoc;
  arm(e.else);
  ctx.jump(join, e.else.pos);
  ctx.cur = join;
}

/** Variables an expression may write: assignment targets, and every global if it calls a procedure. */
function mayWrite(ctx: FunctionContext, e: Expr, into: Set<string>): Set<string> {
  switch (e.kind) {
    case 'assign':
    case 'incdec': {
      const target = e.kind === 'assign' ? e.target : e.arg;
      if (target.kind === 'ident') {
        const sym = ctx.lookup(target.name);
        if (sym?.kind === 'var') into.add(sym.ir);
      }
      if (e.kind === 'assign') mayWrite(ctx, e.value, into);
      return into;
    }
    case 'call':
      if (e.callee.kind === 'ident' && ctx.program.functions.has(e.callee.name)) {
        for (const g of ctx.program.globalNames) into.add(g);
      }
      for (const a of e.args) mayWrite(ctx, a, into);
      return into;
    case 'unary':
    case 'cast':
      return mayWrite(ctx, e.arg, into);
    case 'binary':
    case 'comma':
      mayWrite(ctx, e.left, into);
      return mayWrite(ctx, e.right, into);
    case 'cond':
      mayWrite(ctx, e.test, into);
      mayWrite(ctx, e.then, into);
      return mayWrite(ctx, e.else, into);
    default:
      return into;
  }
}

/**
 * Values of several operands, left to right. An earlier operand's value is copied to a temporary
 * when a later operand may overwrite a variable it mentions (`x + x++`, `g + f()` with f writing g).
 */
export function lowerOperands(ctx: FunctionContext, exprs: readonly Expr[]): Linear[] {
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

/** The variable an assignment or increment writes; anything but a plain identifier is rejected. */
function lvalue(ctx: FunctionContext, target: Expr, what: string): VarSymbol {
  if (target.kind === 'ident') return ctx.variable(target.name, target.pos);
  if (target.kind === 'index' || target.kind === 'member' || (target.kind === 'unary' && target.op === '*')) {
    return rejectExpression(target);
  }
  throw syntaxError(`lvalue required as ${what}`, target.pos);
}

/** `sym = e` with C's conversion to the target type (_Bool: non-zero becomes 1). */
export function lowerInto(ctx: FunctionContext, sym: VarSymbol, e: Expr, pos: SourcePos): void {
  if (e.kind === 'call' && e.callee.kind === 'ident' && isNondetCall(ctx, e.callee.name)) {
    const range = nondetCallRange(ctx, e);
    if (!sym.type.isBool || (range.lo >= 0n && range.hi <= 1n)) {
      ctx.emit({ kind: 'havoc', target: sym.ir, range }, pos);
      return;
    }
  }
  if (sym.type.isBool) {
    assignTruth(ctx, sym.ir, e);
    return;
  }
  if (e.kind === 'call' && e.callee.kind === 'ident' && ctx.program.functions.has(e.callee.name) && ctx.lookup(e.callee.name) === undefined) {
    lowerCall(ctx, e, sym.ir, true);
    return;
  }
  if (isPure(e)) {
    const cases = pureCases(ctx, e);
    if (cases) {
      assignCases(ctx, sym.ir, cases, pos);
      return;
    }
  }
  if (e.kind === 'cond') {
    lowerConditionalInto(ctx, e, (branchExpr) => lowerInto(ctx, sym, branchExpr, branchExpr.pos));
    return;
  }
  const v = lowerValue(ctx, e);
  ctx.emit({ kind: 'assign', target: sym.ir, expr: v }, pos);
}

/** Stores a computed value, converting for _Bool targets. */
function store(ctx: FunctionContext, sym: VarSymbol, v: Linear, pos: SourcePos): void {
  if (!sym.type.isBool) {
    ctx.emit({ kind: 'assign', target: sym.ir, expr: v }, pos);
    return;
  }
  const truth = F.not(F.eqZero(v));
  const yes = ctx.newLocation();
  const no = ctx.newLocation();
  const join = ctx.newLocation();
  branch(ctx, truth, yes, no, pos);
  ctx.edge(yes, join, { kind: 'assign', target: sym.ir, expr: L.constant(1n) }, pos);
  ctx.edge(no, join, { kind: 'assign', target: sym.ir, expr: L.constant(0n) }, pos);
  ctx.cur = join;
}

function lowerAssignment(ctx: FunctionContext, e: Expr & { kind: 'assign' }): Linear {
  const sym = lvalue(ctx, e.target, 'left operand of assignment');
  const x = L.variable(sym.ir);
  switch (e.op) {
    case '=':
      lowerInto(ctx, sym, e.value, e.pos);
      break;
    case '+=':
    case '-=': {
      const v = lowerValue(ctx, e.value);
      store(ctx, sym, e.op === '+=' ? L.add(x, v) : L.sub(x, v), e.pos);
      break;
    }
    case '*=': {
      const v = lowerValue(ctx, e.value);
      store(ctx, sym, multiply(x, v, e.opPos), e.pos);
      break;
    }
    case '/=':
    case '%=': {
      const op = e.op === '/=' ? '/' : '%';
      const k = divisorOf(ctx, e.value, e.opPos, op);
      store(ctx, sym, divide(ctx, x, k, op, e.opPos), e.pos);
      break;
    }
    default:
      throw unsupported(`bit operation '${e.op}'`, e.opPos);
  }
  return x;
}

/** `x++`, `++x`, `x--`, `--x`; the value (when needed) is the old value for the postfix forms. */
function lowerIncDec(ctx: FunctionContext, e: Expr & { kind: 'incdec' }, valueNeeded: boolean): Linear {
  const sym = lvalue(ctx, e.arg, `operand of '${e.op}'`);
  const x = L.variable(sym.ir);
  const delta = e.op === '++' ? 1n : -1n;
  if (!sym.type.isBool) {
    ctx.emit({ kind: 'assign', target: sym.ir, expr: L.addConstant(x, delta) }, e.pos);
    // After `x := x + 1` the old value is `x - 1`: no temporary needed.
    return e.prefix ? x : L.addConstant(x, -delta);
  }
  // _Bool: ++ always gives 1; -- maps 0 to 1 and 1 to 0.
  let old: Linear = x;
  if (valueNeeded && !e.prefix) {
    const t = ctx.temp();
    ctx.emit({ kind: 'assign', target: t, expr: x }, e.pos);
    old = L.variable(t);
  }
  ctx.emit({ kind: 'assign', target: sym.ir, expr: delta > 0n ? L.constant(1n) : L.sub(L.constant(1n), x) }, e.pos);
  return e.prefix ? x : old;
}

// ---------------------------------------------------------------------------------------------------
// Effects

/** Evaluates e for its side effects only. */
export function lowerEffect(ctx: FunctionContext, e: Expr): void {
  switch (e.kind) {
    case 'assign':
      lowerAssignment(ctx, e);
      return;
    case 'incdec':
      lowerIncDec(ctx, e, false);
      return;
    case 'call':
      lowerCall(ctx, e, null, false);
      return;
    case 'comma':
      lowerEffect(ctx, e.left);
      lowerEffect(ctx, e.right);
      return;
    case 'cast':
      castTarget(e.type, e.pos);
      lowerEffect(ctx, e.arg);
      return;
    case 'binary':
      if ((e.op === '&&' || e.op === '||') && !isPure(e.right)) {
        const rest = ctx.newLocation();
        const join = ctx.newLocation();
        if (e.op === '&&') lowerCondition(ctx, e.left, rest, join);
        else lowerCondition(ctx, e.left, join, rest);
        ctx.cur = rest;
        lowerEffect(ctx, e.right);
        ctx.jump(join, e.right.pos);
        ctx.cur = join;
        return;
      }
      break;
    case 'cond':
      if (!isPure(e.then) || !isPure(e.else)) {
        lowerConditionalInto(ctx, e, (branchExpr) => lowerEffect(ctx, branchExpr));
        return;
      }
      break;
    default:
      break;
  }
  if (isPure(e)) {
    // No effect: still check it, so an unsupported construct is reported even in a dead statement.
    try {
      valueCases(e, ctx, placeholderDivisions(ctx, e));
    } catch (err) {
      if (!(err instanceof TooManyCases)) throw err;
    }
    return;
  }
  lowerValue(ctx, e);
}

/** Division values that are only checked, not computed (for expressions whose value is discarded). */
function placeholderDivisions(ctx: FunctionContext, e: Expr): Map<Expr, Linear> {
  const divisions = new Map<Expr, Linear>();
  divisionsToPrepare(e, ctx, divisions, () => L.constant(0n));
  return divisions;
}
