// Lowering of calls: the verification builtins (assume/assert/reach_error/abort/exit), the nondet
// family (havoc with the C type's range) and calls of defined procedures. assume/assert conditions are
// tested as one formula when their side effects happen unconditionally.
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import type { Expr } from './ast.js';
import { builtinArity, builtinKind, isNondetName, nondetRange, type Range } from './builtins.js';
import type { FunctionContext } from './context.js';
import { returnType } from './ctypes.js';
import { lowerCondition, lowerEffect, lowerOperands, lowerValue, pureFormula } from './lower-expr.js';
import { isComparison, isPure, negate, voidValueError } from './pure.js';

type CallExpr = Expr & { kind: 'call' };

export function isNondetCall(ctx: FunctionContext, name: string): boolean {
  return isNondetName(name) && !ctx.program.functions.has(name) && ctx.lookup(name) === undefined;
}

export function nondetCallRange(ctx: FunctionContext, e: CallExpr): Range {
  const name = (e.callee as Expr & { kind: 'ident' }).name;
  if (e.args.length > 0) throw syntaxError(`too many arguments to function '${name}' (expected 0, got ${e.args.length})`, e.args[0]!.pos);
  const proto = ctx.program.prototypes.get(name);
  if (!name.startsWith('__VERIFIER_nondet_') && proto) {
    // A hand-written `nondet()` takes its range from its declared return type.
    const ret = returnType(proto.ret, e.pos, name);
    if (ret === null) throw syntaxError(`'${name}' returns void`, e.pos);
    return ret.range;
  }
  return nondetRange(name, e.callee.pos);
}

/**
 * A call: a builtin (assume/assert/reach_error/abort/exit), a nondet function (havoc with the C
 * type's range) or a defined procedure. Returns the result value when `valueNeeded`.
 */
export function lowerCall(ctx: FunctionContext, e: CallExpr, target: string | null, valueNeeded: boolean): Linear | null {
  if (e.callee.kind !== 'ident') throw unsupported('call through a function pointer or expression', e.callee.pos);
  const name = e.callee.name;
  const shadow = ctx.lookup(name);
  if (shadow !== undefined) throw syntaxError(`called object '${name}' is not a function`, e.callee.pos);

  const sig = ctx.program.functions.get(name);
  if (sig) {
    if (e.args.length !== sig.params.length) {
      const which = e.args.length > sig.params.length ? 'many' : 'few';
      throw syntaxError(`too ${which} arguments to function '${name}' (expected ${sig.params.length}, got ${e.args.length})`, e.pos);
    }
    const args = lowerOperands(ctx, e.args);
    if (sig.ret === null && valueNeeded) voidValueError(e.pos);
    const result = target ?? (valueNeeded ? ctx.temp() : null);
    ctx.emit({ kind: 'call', target: result, callee: name, args }, e.pos);
    return result === null ? null : L.variable(result);
  }

  if (isNondetName(name)) {
    const range = nondetCallRange(ctx, e);
    if (!valueNeeded && target === null) return null;
    const t = target ?? ctx.temp();
    ctx.emit({ kind: 'havoc', target: t, range }, e.pos);
    return L.variable(t);
  }

  const kind = builtinKind(name);
  if (kind === undefined) {
    const declared = ctx.program.prototypes.has(name) ? 'declared but not defined' : 'not declared';
    throw unsupported(`call to undefined function '${name}' (${declared})`, e.callee.pos);
  }
  const arity = builtinArity(kind, name);
  if (e.args.length !== arity) {
    const which = e.args.length > arity ? 'many' : 'few';
    throw syntaxError(`too ${which} arguments to function '${name}' (expected ${arity}, got ${e.args.length})`, e.pos);
  }
  if (valueNeeded) voidValueError(e.pos);
  switch (kind) {
    case 'assume':
      lowerAssume(ctx, e.args[0]!, e.pos);
      break;
    case 'assert':
      lowerAssert(ctx, e.args[0]!, e.pos);
      break;
    case 'error':
      ctx.emit({ kind: 'assert', cond: F.FALSE }, e.pos);
      break;
    case 'abort':
      for (const a of e.args) lowerEffect(ctx, a);
      // The run stops here: nothing follows (the target is a dead end).
      ctx.jump(ctx.newLocation(), e.pos, { kind: 'assume', cond: F.FALSE });
      break;
  }
  return null;
}

/**
 * True when every side effect of e happens whatever the values are: none sits in the right operand
 * of `&&`/`||` or in an arm of `?:`. Then e can be evaluated first and tested as one formula.
 */
function effectsUnconditional(e: Expr): boolean {
  if (isPure(e)) return true;
  switch (e.kind) {
    case 'binary':
      if (e.op === '&&' || e.op === '||') return effectsUnconditional(e.left) && isPure(e.right);
      return effectsUnconditional(e.left) && effectsUnconditional(e.right);
    case 'cond':
      return effectsUnconditional(e.test) && isPure(e.then) && isPure(e.else);
    case 'unary':
    case 'cast':
      return effectsUnconditional(e.arg);
    case 'comma':
      return effectsUnconditional(e.right);
    default:
      return true;
  }
}

/** The truth of e as one formula, its side effects emitted first; null when that is not possible. */
function conditionFormula(ctx: FunctionContext, e: Expr): Formula | null {
  if (isPure(e)) return pureFormula(ctx, e);
  if (!effectsUnconditional(e)) return null;
  return evaluatedFormula(ctx, e);
}

function evaluatedFormula(ctx: FunctionContext, e: Expr): Formula {
  if (isPure(e)) {
    const f = pureFormula(ctx, e);
    if (f) return f;
  }
  switch (e.kind) {
    case 'unary':
      if (e.op === '!') return negate(evaluatedFormula(ctx, e.arg));
      break;
    case 'binary':
      if (e.op === '&&' || e.op === '||') {
        const left = evaluatedFormula(ctx, e.left);
        const right = evaluatedFormula(ctx, e.right);
        return e.op === '&&' ? F.and(left, right) : F.or(left, right);
      }
      if (isComparison(e.op)) {
        const [a, b] = lowerOperands(ctx, [e.left, e.right]);
        return F.compare(a!, e.op, b!);
      }
      break;
    case 'comma':
      lowerEffect(ctx, e.left);
      return evaluatedFormula(ctx, e.right);
    default:
      break;
  }
  return F.not(F.eqZero(lowerValue(ctx, e)));
}

function lowerAssume(ctx: FunctionContext, e: Expr, pos: SourcePos): void {
  const f = conditionFormula(ctx, e);
  if (f) {
    if (f.kind !== 'true') ctx.emit({ kind: 'assume', cond: f }, pos);
    return;
  }
  // Short-circuit evaluation; the false outcome leads to a location with no way out (blocked).
  const yes = ctx.newLocation();
  const no = ctx.newLocation();
  lowerCondition(ctx, e, yes, no);
  ctx.cur = yes;
}

function lowerAssert(ctx: FunctionContext, e: Expr, pos: SourcePos): void {
  const f = conditionFormula(ctx, e);
  if (f) {
    ctx.emit({ kind: 'assert', cond: f }, pos);
    return;
  }
  // Short-circuit evaluation; the false outcome fails via assert(false).
  const yes = ctx.newLocation();
  const no = ctx.newLocation();
  lowerCondition(ctx, e, yes, no);
  ctx.edge(no, yes, { kind: 'assert', cond: F.FALSE }, pos);
  ctx.cur = yes;
}
