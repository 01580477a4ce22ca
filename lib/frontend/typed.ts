// Type checking of expressions (C11 6.3, 6.5): the syntax tree of one full expression becomes a typed
// tree in which every node carries its C type and every implicit conversion is an explicit `convert`
// node — integer promotions, the usual arithmetic conversions, conversion on assignment, argument
// passing and return. Constant sub-expressions are folded with C's arithmetic (wrap-around for
// unsigned types and conversions), so `unsigned x = -1` stores 4294967295 and `-1 < 1u` is 0. The
// lowering (pure.ts, lower-expr.ts) only has to spell out each node's exact meaning.
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import type { BinaryOp, CType, Expr } from './ast.js';
import type { BuiltinKind } from './builtins.js';
import { contains, convertConstant, isVoid, scalarType, type IntType, type IntTypes, type Range } from './ctypes.js';
import type { FunctionSignature, VarSymbol } from './context.js';

export type ArithOp = '+' | '-' | '*' | '/' | '%';
export type CompareOp = '<' | '<=' | '>' | '>=' | '==' | '!=';

/** A typed expression; `type` null means void (a void call, a cast to void, a builtin). */
export type TExpr =
  | { readonly kind: 'const'; readonly type: IntType; readonly value: bigint; readonly pos: SourcePos }
  | { readonly kind: 'var'; readonly type: IntType; readonly ir: string; readonly pos: SourcePos }
  /** The value of `arg` converted to `type` (arg.type differs from it). */
  | { readonly kind: 'convert'; readonly type: IntType; readonly arg: TExpr; readonly pos: SourcePos }
  /** `-arg` and `~arg`, arg already promoted (arg.type is type). */
  | { readonly kind: 'neg' | 'bitnot'; readonly type: IntType; readonly arg: TExpr; readonly pos: SourcePos }
  /** `!arg`: 1 when arg is 0, else 0 (type int). */
  | { readonly kind: 'not'; readonly type: IntType; readonly arg: TExpr; readonly pos: SourcePos }
  /** Arithmetic in `type`, both operands converted to it; `*` has a constant side, `/` and `%` a non-zero constant right. */
  | { readonly kind: 'arith'; readonly type: IntType; readonly op: ArithOp; readonly left: TExpr; readonly right: TExpr; readonly pos: SourcePos; readonly opPos: SourcePos }
  /** `left << amount` / `left >> amount` by a constant in 0..width-1, left promoted (left.type is type). */
  | { readonly kind: 'shift'; readonly type: IntType; readonly op: '<<' | '>>'; readonly left: TExpr; readonly amount: bigint; readonly pos: SourcePos; readonly opPos: SourcePos }
  /** A comparison of two operands converted to their common type; 0 or 1 (type int). */
  | { readonly kind: 'compare'; readonly type: IntType; readonly op: CompareOp; readonly left: TExpr; readonly right: TExpr; readonly pos: SourcePos; readonly opPos: SourcePos }
  | { readonly kind: 'logic'; readonly type: IntType; readonly op: '&&' | '||'; readonly left: TExpr; readonly right: TExpr; readonly pos: SourcePos }
  /** `test ? then : else`, both arms converted to `type` (or both void). */
  | { readonly kind: 'cond'; readonly type: IntType | null; readonly test: TExpr; readonly then: TExpr; readonly else: TExpr; readonly pos: SourcePos }
  | { readonly kind: 'comma'; readonly type: IntType | null; readonly left: TExpr; readonly right: TExpr; readonly pos: SourcePos }
  /** `target = value`: value already has the target's type (a compound assignment reads the target in it). */
  | { readonly kind: 'assign'; readonly type: IntType; readonly target: VarSymbol; readonly value: TExpr; readonly pos: SourcePos; readonly opPos: SourcePos }
  /** `++x`, `x--`, …: `value` is the new value (the target's type); the expression's value is the new
   * value when prefix, the old one otherwise. */
  | { readonly kind: 'incdec'; readonly type: IntType; readonly target: VarSymbol; readonly prefix: boolean; readonly value: TExpr; readonly pos: SourcePos }
  /** A call of a defined function, arguments converted to the parameter types. */
  | { readonly kind: 'call'; readonly type: IntType | null; readonly callee: string; readonly args: readonly TExpr[]; readonly pos: SourcePos }
  | { readonly kind: 'nondet'; readonly type: IntType; readonly name: string; readonly pos: SourcePos }
  /** assume/assert (one condition), reach_error (none), abort/exit (exit's status evaluated for effect). */
  | { readonly kind: 'builtin'; readonly type: null; readonly builtin: BuiltinKind; readonly args: readonly TExpr[]; readonly pos: SourcePos }
  /** `(void)arg`. */
  | { readonly kind: 'discard'; readonly type: null; readonly arg: TExpr; readonly pos: SourcePos };

export type ValueExpr = TExpr & { readonly type: IntType };

/** What a call resolves to. */
export type Callee =
  | { readonly kind: 'function'; readonly sig: FunctionSignature }
  | { readonly kind: 'nondet'; readonly type: IntType }
  | { readonly kind: 'builtin'; readonly builtin: BuiltinKind; readonly arity: number };

/** What type checking needs from where the expression stands. */
export interface TypingScope {
  readonly types: IntTypes;
  /** The variable a C identifier denotes, or the right diagnostic. */
  variable(cName: string, pos: SourcePos): VarSymbol;
  /** What a call of `name` means, or the right diagnostic. */
  callee(name: string, pos: SourcePos): Callee;
}

const BIT_OPS = new Set(['&', '|', '^']);
const COMPARISONS = new Set(['<', '<=', '>', '>=', '==', '!=']);

export function isComparison(op: BinaryOp): op is CompareOp {
  return COMPARISONS.has(op);
}

export function voidValueError(pos: SourcePos): never {
  throw syntaxError('void value not ignored as it ought to be', pos);
}

/** `t` as a value: void is an error. */
export function asValue(t: TExpr): ValueExpr {
  if (t.type === null) voidValueError(t.pos);
  return t as ValueExpr;
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
      if (e.op === '&') throw unsupported("address-of operator '&' (pointers)", e.pos);
      if (e.op === '*') throw unsupported("pointer dereference '*'", e.pos);
      break;
    case 'binary':
      if (BIT_OPS.has(e.op)) throw unsupported(`bit operation '${e.op}'`, e.opPos);
      break;
    default:
      break;
  }
  throw new Error(`internal: rejectExpression called on supported ${e.kind}`);
}

// ---------------------------------------------------------------------------------------------------
// Conversions and constant folding

/** `t` converted to `type`: a folded constant, `t` itself when the type is the same, else a convert node. */
export function convertTo(type: IntType, t: TExpr): ValueExpr {
  const v = asValue(t);
  if (v.type.name === type.name) return v;
  if (v.kind === 'const') return { kind: 'const', type, value: convertConstant(v.value, type), pos: v.pos };
  return { kind: 'convert', type, arg: v, pos: v.pos };
}

function constant(type: IntType, value: bigint, pos: SourcePos): ValueExpr {
  return { kind: 'const', type, value, pos };
}

/** The exact result of an operation on constants in type t, or null when it overflows a signed type
 * (undefined behaviour: left to the lowering, whose overflow check then fails). */
function foldInType(t: IntType, value: bigint): bigint | null {
  if (!t.signed) return convertConstant(value, t);
  return value >= t.range.lo && value <= t.range.hi ? value : null;
}

// ---------------------------------------------------------------------------------------------------
// Value ranges: what a node's value can be in a run of the C program (used to decide how many
// wrap-arounds a conversion or an unsigned operation can take, and whether a signed one can overflow)

/** The mathematical value's range before any wrap-around or overflow check of this node. */
export function mathRange(t: ValueExpr): Range {
  switch (t.kind) {
    case 'const':
      return { lo: t.value, hi: t.value };
    case 'neg': {
      const a = valueRange(t.arg as ValueExpr);
      return { lo: -a.hi, hi: -a.lo };
    }
    case 'bitnot': {
      const a = valueRange(t.arg as ValueExpr);
      return t.type.signed ? { lo: -a.hi - 1n, hi: -a.lo - 1n } : { lo: t.type.range.hi - a.hi, hi: t.type.range.hi - a.lo };
    }
    case 'arith': {
      const a = valueRange(t.left as ValueExpr);
      const b = valueRange(t.right as ValueExpr);
      switch (t.op) {
        case '+': return { lo: a.lo + b.lo, hi: a.hi + b.hi };
        case '-': return { lo: a.lo - b.hi, hi: a.hi - b.lo };
        case '*': return hull([a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]);
        case '/': {
          const k = constantValue(t.right)!;
          return hull([a.lo / k, a.hi / k]);
        }
        case '%': {
          const k = constantValue(t.right)!;
          const m = (k < 0n ? -k : k) - 1n;
          return { lo: a.lo < 0n ? -m : 0n, hi: a.hi > 0n ? m : 0n };
        }
      }
      break;
    }
    case 'shift': {
      const a = valueRange(t.left as ValueExpr);
      const p = 1n << t.amount;
      return t.op === '<<' ? { lo: a.lo * p, hi: a.hi * p } : { lo: floorDiv(a.lo, p), hi: floorDiv(a.hi, p) };
    }
    case 'compare':
    case 'logic':
    case 'not':
      return { lo: 0n, hi: 1n };
    case 'cond': {
      const a = valueRange(t.then as ValueExpr);
      const b = valueRange(t.else as ValueExpr);
      return { lo: a.lo < b.lo ? a.lo : b.lo, hi: a.hi > b.hi ? a.hi : b.hi };
    }
    case 'comma':
      return valueRange(t.right as ValueExpr);
    case 'convert': {
      const a = valueRange(t.arg as ValueExpr);
      if (t.type.isBool) return contains(t.type.range, a) ? a : t.type.range;
      return a;
    }
    default:
      break;
  }
  return t.type.range;
}

/** The range of the node's C value: its mathematical range, cut to the type's range where the node
 * wraps around (unsigned, conversions) or where going beyond it is undefined behaviour (signed). */
export function valueRange(t: ValueExpr): Range {
  const m = mathRange(t);
  const r = t.type.range;
  if (contains(r, m)) return m;
  if (!t.type.signed || t.kind === 'convert') return r;
  return { lo: m.lo > r.lo ? m.lo : r.lo, hi: m.hi < r.hi ? m.hi : r.hi };
}

function hull(values: bigint[]): Range {
  let lo = values[0]!;
  let hi = values[0]!;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return { lo, hi };
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

export function constantValue(t: TExpr): bigint | null {
  return t.kind === 'const' ? t.value : null;
}

/** Whether the node's operation is signed arithmetic that can leave its type's range (an overflow check). */
export function mayOverflow(t: ValueExpr): boolean {
  switch (t.kind) {
    case 'neg':
    case 'arith':
    case 'shift':
      return t.type.signed && !contains(t.type.range, mathRange(t));
    default:
      return false;
  }
}

// ---------------------------------------------------------------------------------------------------
// Type checking

export function elaborate(scope: TypingScope, e: Expr): TExpr {
  const types = scope.types;
  const value = (x: Expr): ValueExpr => asValue(elaborate(scope, x));
  switch (e.kind) {
    case 'int':
      return constant(types.literal(e.value, e.suffix, e.decimal, e.pos, e.text), e.value, e.pos);
    case 'ident': {
      const sym = scope.variable(e.name, e.pos);
      if (sym.constant !== undefined) return constant(sym.type, sym.constant, e.pos);
      return { kind: 'var', type: sym.type, ir: sym.ir, pos: e.pos };
    }
    case 'unary': {
      switch (e.op) {
        case '+': {
          const a = value(e.arg);
          return convertTo(types.promote(a.type), a);
        }
        case '-':
        case '~': {
          const a = value(e.arg);
          const type = types.promote(a.type);
          const arg = convertTo(type, a);
          if (arg.kind === 'const') {
            const folded = foldInType(type, e.op === '-' ? -arg.value : -arg.value - 1n);
            if (folded !== null) return constant(type, folded, e.pos);
          }
          return { kind: e.op === '-' ? 'neg' : 'bitnot', type, arg, pos: e.pos };
        }
        case '!': {
          const a = value(e.arg);
          if (a.kind === 'const') return constant(types.int, a.value === 0n ? 1n : 0n, e.pos);
          return { kind: 'not', type: types.int, arg: a, pos: e.pos };
        }
        default:
          return rejectExpression(e);
      }
    }
    case 'binary':
      return binary(scope, e);
    case 'cond': {
      const test = value(e.test);
      const a = elaborate(scope, e.then);
      const b = elaborate(scope, e.else);
      if (a.type === null || b.type === null) {
        if (a.type !== b.type) throw syntaxError('type mismatch in conditional expression (one arm is void)', e.pos);
        return { kind: 'cond', type: null, test, then: a, else: b, pos: e.pos };
      }
      const type = types.common(a.type, b.type);
      const then = convertTo(type, a);
      const otherwise = convertTo(type, b);
      if (test.kind === 'const') return test.value !== 0n ? then : otherwise;
      return { kind: 'cond', type, test, then, else: otherwise, pos: e.pos };
    }
    case 'comma': {
      const left = elaborate(scope, e.left);
      const right = elaborate(scope, e.right);
      return { kind: 'comma', type: right.type, left, right, pos: e.pos };
    }
    case 'assign':
      return assignment(scope, e);
    case 'incdec': {
      const target = lvalue(scope, e.arg, `operand of '${e.op}'`);
      const type = types.promote(target.type);
      const old: ValueExpr = convertTo(type, { kind: 'var', type: target.type, ir: target.ir, pos: e.arg.pos });
      const one = constant(type, 1n, e.pos);
      const sum: ValueExpr = { kind: 'arith', type, op: e.op === '++' ? '+' : '-', left: old, right: one, pos: e.pos, opPos: e.pos };
      return { kind: 'incdec', type: target.type, target, prefix: e.prefix, value: convertTo(target.type, sum), pos: e.pos };
    }
    case 'call':
      return call(scope, e);
    case 'cast': {
      if (isVoid(e.type)) return { kind: 'discard', type: null, arg: elaborate(scope, e.arg), pos: e.pos };
      const type = scalarType(types, e.type, e.pos, 'cast');
      const arg = value(e.arg);
      const converted = convertTo(type, arg);
      // Keep the cast's position on a conversion node (it is where a wrap-around happens).
      return converted.kind === 'convert' ? { ...converted, pos: e.pos } : converted;
    }
    default:
      return rejectExpression(e);
  }
}

function binary(scope: TypingScope, e: Expr & { kind: 'binary' }): TExpr {
  const types = scope.types;
  const op = e.op;
  if (BIT_OPS.has(op)) return rejectExpression(e);
  if (op === '&&' || op === '||') {
    const left = asValue(elaborate(scope, e.left));
    const right = asValue(elaborate(scope, e.right));
    if (left.kind === 'const') {
      const decided = op === '&&' ? left.value === 0n : left.value !== 0n;
      if (decided) return constant(types.int, op === '&&' ? 0n : 1n, e.pos);
      if (right.kind === 'const') return constant(types.int, right.value !== 0n ? 1n : 0n, e.pos);
    }
    return { kind: 'logic', type: types.int, op, left, right, pos: e.pos };
  }
  const a = asValue(elaborate(scope, e.left));
  const b = asValue(elaborate(scope, e.right));
  if (op === '<<' || op === '>>') return shift(types, a, b, op, e.pos, e.opPos);
  const type = types.common(a.type, b.type);
  const left = convertTo(type, a);
  const right = convertTo(type, b);
  if (isComparison(op)) {
    if (left.kind === 'const' && right.kind === 'const') return constant(types.int, compareConstants(left.value, op, right.value) ? 1n : 0n, e.pos);
    return { kind: 'compare', type: types.int, op, left, right, pos: e.pos, opPos: e.opPos };
  }
  return arithmetic(type, op as ArithOp, left, right, e.pos, e.opPos);
}

function compareConstants(a: bigint, op: CompareOp, b: bigint): boolean {
  switch (op) {
    case '<': return a < b;
    case '<=': return a <= b;
    case '>': return a > b;
    case '>=': return a >= b;
    case '==': return a === b;
    case '!=': return a !== b;
  }
}

/** `left op right` in `type` (both operands already of it), folded when both are constant. */
function arithmetic(type: IntType, op: ArithOp, left: ValueExpr, right: ValueExpr, pos: SourcePos, opPos: SourcePos): ValueExpr {
  if (op === '*' && left.kind !== 'const' && right.kind !== 'const') {
    throw unsupported('product of two non-constant expressions (non-linear arithmetic)', opPos);
  }
  if (op === '/' || op === '%') {
    if (right.kind !== 'const') throw unsupported(`${op === '/' ? 'division' : 'modulo'} by a non-constant expression`, opPos);
    if (right.value === 0n) throw unsupported(`${op === '/' ? 'division' : 'modulo'} by zero`, opPos);
  }
  if (left.kind === 'const' && right.kind === 'const') {
    const x = left.value;
    const y = right.value;
    // bigint `/` truncates toward zero and `%` follows the dividend, as in C.
    const exact = op === '+' ? x + y : op === '-' ? x - y : op === '*' ? x * y : op === '/' ? x / y : x % y;
    // C11 6.5.5p6: when x / y is not representable (INT_MIN / -1), x % y is undefined too.
    const representable = op !== '%' || foldInType(type, x / y) !== null;
    const folded = representable ? foldInType(type, exact) : null;
    if (folded !== null) return constant(type, folded, pos);
  }
  return { kind: 'arith', type, op, left, right, pos, opPos };
}

function shift(types: IntTypes, a: ValueExpr, b: ValueExpr, op: '<<' | '>>', pos: SourcePos, opPos: SourcePos): ValueExpr {
  const type = types.promote(a.type);
  const left = convertTo(type, a);
  if (b.kind !== 'const') throw unsupported(`shift by a non-constant amount '${op}'`, opPos);
  const amount = b.value;
  if (amount < 0n || amount >= BigInt(type.bits)) {
    throw unsupported(`shift by ${amount}, outside 0..${type.bits - 1} for type '${type.name}' (undefined behaviour)`, opPos);
  }
  if (left.kind === 'const') {
    const p = 1n << amount;
    // A signed left shift is defined for non-negative values whose result is representable (C11 6.5.7p4);
    // a right shift of a negative value is implementation-defined: gcc shifts arithmetically (floor).
    const folded = op === '<<' ? (type.signed && left.value < 0n ? null : foldInType(type, left.value * p)) : floorDiv(left.value, p);
    if (folded !== null) return constant(type, folded, pos);
  }
  return { kind: 'shift', type, op, left, amount, pos, opPos };
}

/** The variable an assignment or increment writes; anything but a plain identifier is rejected. */
function lvalue(scope: TypingScope, target: Expr, what: string): VarSymbol {
  if (target.kind === 'ident') return scope.variable(target.name, target.pos);
  if (target.kind === 'index' || target.kind === 'member' || (target.kind === 'unary' && target.op === '*')) {
    return rejectExpression(target);
  }
  throw syntaxError(`lvalue required as ${what}`, target.pos);
}

function assignment(scope: TypingScope, e: Expr & { kind: 'assign' }): TExpr {
  const types = scope.types;
  const target = lvalue(scope, e.target, 'left operand of assignment');
  const current: ValueExpr = { kind: 'var', type: target.type, ir: target.ir, pos: e.target.pos };
  let value: ValueExpr;
  if (e.op === '=') {
    value = convertTo(target.type, elaborate(scope, e.value));
  } else {
    const op = e.op.slice(0, -1);
    if (BIT_OPS.has(op)) throw unsupported(`bit operation '${e.op}'`, e.opPos);
    const rhs = asValue(elaborate(scope, e.value));
    if (op === '<<' || op === '>>') {
      value = convertTo(target.type, shift(types, current, rhs, op, e.pos, e.opPos));
    } else {
      const type = types.common(target.type, rhs.type);
      value = convertTo(target.type, arithmetic(type, op as ArithOp, convertTo(type, current), convertTo(type, rhs), e.pos, e.opPos));
    }
  }
  return { kind: 'assign', type: target.type, target, value, pos: e.pos, opPos: e.opPos };
}

function call(scope: TypingScope, e: Expr & { kind: 'call' }): TExpr {
  if (e.callee.kind !== 'ident') throw unsupported('call through a function pointer or expression', e.callee.pos);
  const name = e.callee.name;
  const callee = scope.callee(name, e.callee.pos);
  const arity = callee.kind === 'function' ? callee.sig.params.length : callee.kind === 'nondet' ? 0 : callee.arity;
  if (e.args.length !== arity) {
    if (callee.kind === 'nondet') throw syntaxError(`too many arguments to function '${name}' (expected 0, got ${e.args.length})`, e.args[0]!.pos);
    const which = e.args.length > arity ? 'many' : 'few';
    throw syntaxError(`too ${which} arguments to function '${name}' (expected ${arity}, got ${e.args.length})`, e.pos);
  }
  switch (callee.kind) {
    case 'function': {
      const args = e.args.map((a, i) => convertTo(callee.sig.params[i]!, elaborate(scope, a)));
      return { kind: 'call', type: callee.sig.ret, callee: name, args, pos: e.pos };
    }
    case 'nondet':
      return { kind: 'nondet', type: callee.type, name, pos: e.pos };
    case 'builtin': {
      const args = e.args.map((a) => elaborate(scope, a));
      if (callee.builtin === 'assume' || callee.builtin === 'assert') asValue(args[0]!);
      return { kind: 'builtin', type: null, builtin: callee.builtin, args, pos: e.pos };
    }
  }
}

/** No calls, assignments or increments anywhere inside. */
export function isPure(t: TExpr): boolean {
  switch (t.kind) {
    case 'call':
    case 'assign':
    case 'incdec':
    case 'nondet':
    case 'builtin':
      return false;
    case 'convert':
    case 'neg':
    case 'bitnot':
    case 'not':
    case 'discard':
      return isPure(t.arg);
    case 'shift':
      return isPure(t.left);
    case 'arith':
    case 'compare':
    case 'logic':
    case 'comma':
      return isPure(t.left) && isPure(t.right);
    case 'cond':
      return isPure(t.test) && isPure(t.then) && isPure(t.else);
    case 'const':
    case 'var':
      return true;
  }
}

/** The direct sub-expressions of a node, in evaluation order. */
export function children(t: TExpr): readonly TExpr[] {
  switch (t.kind) {
    case 'convert':
    case 'neg':
    case 'bitnot':
    case 'not':
    case 'discard':
      return [t.arg];
    case 'shift':
      return [t.left];
    case 'arith':
    case 'compare':
    case 'logic':
    case 'comma':
      return [t.left, t.right];
    case 'cond':
      return [t.test, t.then, t.else];
    case 'assign':
    case 'incdec':
      return [t.value];
    case 'call':
    case 'builtin':
      return t.args;
    default:
      return [];
  }
}

/** A cast target check for places that only need to know the target kind. */
export function castTargetType(types: IntTypes, type: CType, pos: SourcePos): IntType | null {
  if (isVoid(type)) return null;
  return scalarType(types, type, pos, 'cast');
}
