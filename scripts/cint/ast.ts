// The structured form of a generated program of the gcc-differential tester (scripts/cint/): globals,
// one function `void f(params)` with locals and statements, and the inputs f is called with. The
// generator builds it, print.ts turns it into the farkas text and the gcc text, and reference.ts
// evaluates it. Static C types of expressions are computed here, once, for all three.
import { commonType, literalType, promote, type DataModel, type IntType, type LiteralBase } from './types.js';

export interface Literal {
  readonly kind: 'lit';
  /** Never negative: a negative constant is unary minus applied to a literal, as in C. */
  readonly value: bigint;
  readonly base: LiteralBase;
  /** As written: '', 'u', 'L', 'uLL', 'LLU', … */
  readonly suffix: string;
  /** Hex digits (and the x) in upper case. */
  readonly upper?: boolean;
}

export type UnaryOp = '-' | '~' | '!';
export type ArithOp = '+' | '-' | '*' | '/' | '%';
export type ShiftOp = '<<' | '>>';
export type CompareOp = '<' | '<=' | '>' | '>=' | '==' | '!=';
export type LogicOp = '&&' | '||';
export type BinaryOp = ArithOp | ShiftOp | CompareOp | LogicOp;

export type Expr =
  | { readonly kind: 'var'; readonly name: string }
  | Literal
  | { readonly kind: 'unary'; readonly op: UnaryOp; readonly arg: Expr }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'cond'; readonly cond: Expr; readonly then: Expr; readonly else: Expr }
  | { readonly kind: 'cast'; readonly type: IntType; readonly arg: Expr }
  | { readonly kind: 'incdec'; readonly op: '++' | '--'; readonly prefix: boolean; readonly name: string };

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '<<=' | '>>=';

export type Stmt =
  | { readonly kind: 'assign'; readonly op: AssignOp; readonly target: string; readonly value: Expr }
  /** `x++;` as a statement. */
  | { readonly kind: 'incdec'; readonly op: '++' | '--'; readonly prefix: boolean; readonly name: string }
  | { readonly kind: 'if'; readonly cond: Expr; readonly then: readonly Stmt[]; readonly else: readonly Stmt[] | null }
  /** `for (int var = 0; var < bound; var++) { body }`; the body never assigns var. */
  | { readonly kind: 'for'; readonly var: string; readonly bound: number; readonly body: readonly Stmt[] };

export interface Decl {
  readonly name: string;
  readonly type: IntType;
  /** Globals: a literal or a negated literal, or null (zero). Locals: any expression over what is in scope. */
  readonly init: Expr | null;
}

export interface CProgram {
  /** Identifies the program in reports: `<seed>-<index>-<data model>`. */
  readonly id: string;
  readonly dataModel: DataModel;
  /** Every global, the result globals (`r_<local>`) last. */
  readonly globals: readonly Decl[];
  readonly params: readonly { readonly name: string; readonly type: IntType }[];
  /** Verification tasks (verify-task.ts): inputs that f declares first, in this order, each
   * initialised from `__VERIFIER_nondet_<type>()`, instead of taking them as parameters. */
  readonly nondets?: readonly { readonly name: string; readonly type: IntType }[];
  readonly locals: readonly Decl[];
  /** Ends with the copies of every parameter and local into its result global (not in verification
   * tasks, whose f ends with the assertion instead). */
  readonly body: readonly Stmt[];
  /** Verification tasks: the condition of the `__VERIFIER_assert` after the body. It has no side
   * effect and cannot overflow (a comparison of variables and constants). */
  readonly assertion?: Expr;
  /** One value per parameter (and per nondet input), in its type's range. */
  readonly inputs: ReadonlyMap<string, bigint>;
  /** The type of every variable: globals, parameters, locals and loop counters (`int`). */
  readonly types: ReadonlyMap<string, IntType>;
}

/** The C type of an expression. */
export function typeOf(e: Expr, types: ReadonlyMap<string, IntType>, dm: DataModel): IntType {
  switch (e.kind) {
    case 'var':
    case 'incdec': {
      const t = types.get(e.name);
      if (!t) throw new Error(`cint: unknown variable ${e.name}`);
      return t;
    }
    case 'lit': {
      const t = literalType(e.value, e.base, e.suffix, dm);
      if (!t) throw new Error(`cint: literal ${e.value}${e.suffix} has no type`);
      return t;
    }
    case 'unary':
      return e.op === '!' ? 'int' : promote(typeOf(e.arg, types, dm));
    case 'binary':
      switch (e.op) {
        case '+': case '-': case '*': case '/': case '%':
          return commonType(typeOf(e.left, types, dm), typeOf(e.right, types, dm), dm);
        case '<<': case '>>':
          return promote(typeOf(e.left, types, dm));
        default:
          return 'int';
      }
    case 'cond':
      return commonType(typeOf(e.then, types, dm), typeOf(e.else, types, dm), dm);
    case 'cast':
      return e.type;
  }
}

/** No variable in it: gcc folds it at compile time (so it must never be able to overflow). */
export function isConstant(e: Expr): boolean {
  switch (e.kind) {
    case 'var': case 'incdec': return false;
    case 'lit': return true;
    case 'unary': case 'cast': return isConstant(e.arg);
    case 'binary': return isConstant(e.left) && isConstant(e.right);
    case 'cond': return isConstant(e.cond) && isConstant(e.then) && isConstant(e.else);
  }
}

/** A literal, or unary minus applied to one: what the generator uses where C needs a constant operand. */
export function isLiteralConstant(e: Expr): boolean {
  return e.kind === 'lit' || (e.kind === 'unary' && e.op === '-' && e.arg.kind === 'lit');
}

/** Every variable occurrence (reads, increments) in an expression, by name. */
export function countOccurrences(e: Expr, into: Map<string, number>): Map<string, number> {
  switch (e.kind) {
    case 'var': case 'incdec': into.set(e.name, (into.get(e.name) ?? 0) + 1); break;
    case 'lit': break;
    case 'unary': case 'cast': countOccurrences(e.arg, into); break;
    case 'binary': countOccurrences(e.left, into); countOccurrences(e.right, into); break;
    case 'cond': countOccurrences(e.cond, into); countOccurrences(e.then, into); countOccurrences(e.else, into); break;
  }
  return into;
}
