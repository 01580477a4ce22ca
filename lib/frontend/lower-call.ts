// Lowering of calls: the verification builtins (assume/assert/reach_error/abort/exit) and calls of
// defined procedures (arguments already converted to the parameter types by typed.ts). assume/assert
// conditions are tested as one formula when their side effects happen unconditionally. Under the
// no-overflow and termination properties an assertion only stops the run (SV-COMP's reach_error
// aborts): the property checked is the overflow checks', or that every run ends.
import type { SourcePos } from '../ir/cfg.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { FunctionContext } from './context.js';
import { lowerCondition, lowerEffect, lowerOperands, lowerValue, pureFormula } from './lower-expr.js';
import { checksOverflow, negate, splitsOnWrap } from './pure.js';
import { isPure, voidValueError, type TExpr } from './typed.js';

type CallExpr = TExpr & { kind: 'call' | 'builtin' };

/** A call of a defined procedure or a builtin. Returns the result value when `valueNeeded`. */
export function lowerCall(ctx: FunctionContext, t: CallExpr, target: string | null, valueNeeded: boolean): Linear | null {
  if (t.kind === 'call') {
    const args = lowerOperands(ctx, t.args);
    if (t.type === null && valueNeeded) voidValueError(t.pos);
    const result = target ?? (valueNeeded ? ctx.temp() : null);
    ctx.emit({ kind: 'call', target: result, callee: t.callee, args }, t.pos);
    return result === null ? null : L.variable(result);
  }
  if (valueNeeded) voidValueError(t.pos);
  const stopsOnly = ctx.program.property !== 'unreach-call';
  switch (t.builtin) {
    case 'assume':
      lowerAssume(ctx, t.args[0]!, t.pos);
      break;
    case 'assert':
      if (stopsOnly) lowerAssume(ctx, t.args[0]!, t.pos);
      else lowerAssert(ctx, t.args[0]!, t.pos);
      break;
    case 'error':
      if (stopsOnly) ctx.jump(ctx.newLocation(), t.pos, { kind: 'assume', cond: F.FALSE });
      else ctx.emit({ kind: 'assert', cond: F.FALSE }, t.pos);
      break;
    case 'abort':
      for (const a of t.args) lowerEffect(ctx, a);
      // The run stops here: nothing follows (the target is a dead end).
      ctx.jump(ctx.newLocation(), t.pos, { kind: 'assume', cond: F.FALSE });
      break;
  }
  return null;
}

/**
 * True when every side effect of t happens whatever the values are: none sits in the right operand
 * of `&&`/`||` or in an arm of `?:`. Then t can be evaluated first and tested as one formula.
 */
function effectsUnconditional(t: TExpr): boolean {
  if (isPure(t) && !splitsOnWrap(t)) return true;
  switch (t.kind) {
    case 'logic':
      // The right side's overflow checks hold only where C evaluates it: then it must branch.
      return effectsUnconditional(t.left) && isPure(t.right) && !checksOverflow(t.right);
    case 'cond':
      return effectsUnconditional(t.test) && isPure(t.then) && isPure(t.else) && !checksOverflow(t.then) && !checksOverflow(t.else);
    case 'arith':
    case 'compare':
      return effectsUnconditional(t.left) && effectsUnconditional(t.right);
    case 'convert':
    case 'neg':
    case 'bitnot':
    case 'not':
      return effectsUnconditional(t.arg);
    case 'shift':
      return effectsUnconditional(t.left);
    case 'comma':
      return effectsUnconditional(t.right);
    default:
      return true;
  }
}

/** The truth of t as one formula, its side effects emitted first; null when that is not possible. */
function conditionFormula(ctx: FunctionContext, t: TExpr): Formula | null {
  if (isPure(t) && !splitsOnWrap(t)) return pureFormula(ctx, t);
  if (!effectsUnconditional(t)) return null;
  return evaluatedFormula(ctx, t);
}

function evaluatedFormula(ctx: FunctionContext, t: TExpr): Formula {
  if (isPure(t) && !splitsOnWrap(t)) {
    const f = pureFormula(ctx, t);
    if (f) return f;
  }
  switch (t.kind) {
    case 'not':
      return negate(evaluatedFormula(ctx, t.arg));
    case 'logic': {
      const left = evaluatedFormula(ctx, t.left);
      const right = evaluatedFormula(ctx, t.right);
      return t.op === '&&' ? F.and(left, right) : F.or(left, right);
    }
    case 'compare': {
      const [a, b] = lowerOperands(ctx, [t.left, t.right]);
      return F.compare(a!, t.op, b!);
    }
    case 'comma':
      lowerEffect(ctx, t.left);
      return evaluatedFormula(ctx, t.right);
    default:
      break;
  }
  return F.not(F.eqZero(lowerValue(ctx, t)));
}

function lowerAssume(ctx: FunctionContext, t: TExpr, pos: SourcePos): void {
  const f = conditionFormula(ctx, t);
  if (f) {
    if (f.kind !== 'true') ctx.emit({ kind: 'assume', cond: f }, pos);
    return;
  }
  // Short-circuit evaluation; the false outcome leads to a location with no way out (blocked).
  const yes = ctx.newLocation();
  const no = ctx.newLocation();
  lowerCondition(ctx, t, yes, no);
  ctx.cur = yes;
}

function lowerAssert(ctx: FunctionContext, t: TExpr, pos: SourcePos): void {
  const f = conditionFormula(ctx, t);
  if (f) {
    ctx.emit({ kind: 'assert', cond: f }, pos);
    return;
  }
  // Short-circuit evaluation; the false outcome fails via assert(false).
  const yes = ctx.newLocation();
  const no = ctx.newLocation();
  lowerCondition(ctx, t, yes, no);
  ctx.edge(no, yes, { kind: 'assert', cond: F.FALSE }, pos);
  ctx.cur = yes;
}
