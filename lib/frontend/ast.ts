// Syntax tree of the C subset as parsed, before any check of what the lowering supports: the parser
// accepts the wider C syntax found in SV-COMP preambles (pointers, strings, sizeof, …) so that the
// lowering can reject a construct with a precise `unsupported:` message at its exact position.
import type { SourcePos } from '../ir/cfg.js';
import type { LiteralSuffix } from './ctypes.js';

/** The type words of a declaration, e.g. `unsigned long`, `struct s`, or a typedef resolved to them. */
export interface BaseType {
  /** Canonical spelling, e.g. 'int', 'long long', 'unsigned int', '_Bool', 'void', 'double', 'struct s'. */
  readonly name: string;
  readonly kind: 'integer' | 'bool' | 'void' | 'float' | 'record' | 'other';
  readonly unsigned: boolean;
}

export type CType =
  | { readonly kind: 'base'; readonly base: BaseType }
  | { readonly kind: 'pointer'; readonly to: CType }
  | { readonly kind: 'array'; readonly of: CType }
  | {
      readonly kind: 'function';
      readonly ret: CType;
      /** null for an empty `()` list (unspecified parameters in a prototype, none in a definition). */
      readonly params: readonly ParamDecl[] | null;
      readonly variadic: boolean;
    };

export interface ParamDecl {
  readonly name: string | null;
  readonly type: CType;
  readonly pos: SourcePos;
}

export type StorageClass = 'typedef' | 'extern' | 'static' | 'auto' | 'register' | null;

export interface Declarator {
  readonly name: string;
  readonly pos: SourcePos;
  readonly type: CType;
  readonly init: Expr | null;
}

export interface Declaration {
  readonly kind: 'decl';
  readonly storage: StorageClass;
  readonly pos: SourcePos;
  readonly declarators: readonly Declarator[];
}

export type BinaryOp =
  | '+' | '-' | '*' | '/' | '%'
  | '<' | '<=' | '>' | '>=' | '==' | '!='
  | '&&' | '||'
  | '&' | '|' | '^' | '<<' | '>>';

export type AssignOp = '=' | '+=' | '-=' | '*=' | '/=' | '%=' | '&=' | '|=' | '^=' | '<<=' | '>>=';

export type Expr =
  /** An integer constant; a character constant (type int) has no suffix and counts as decimal. */
  | { readonly kind: 'int'; readonly pos: SourcePos; readonly value: bigint; readonly suffix: LiteralSuffix; readonly decimal: boolean; readonly text: string }
  | { readonly kind: 'float'; readonly pos: SourcePos; readonly text: string }
  | { readonly kind: 'string'; readonly pos: SourcePos }
  | { readonly kind: 'ident'; readonly pos: SourcePos; readonly name: string }
  | { readonly kind: 'unary'; readonly pos: SourcePos; readonly op: '-' | '+' | '!' | '~' | '&' | '*'; readonly arg: Expr }
  | { readonly kind: 'incdec'; readonly pos: SourcePos; readonly op: '++' | '--'; readonly prefix: boolean; readonly arg: Expr }
  | { readonly kind: 'binary'; readonly pos: SourcePos; readonly opPos: SourcePos; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'assign'; readonly pos: SourcePos; readonly opPos: SourcePos; readonly op: AssignOp; readonly target: Expr; readonly value: Expr }
  | { readonly kind: 'cond'; readonly pos: SourcePos; readonly test: Expr; readonly then: Expr; readonly else: Expr }
  | { readonly kind: 'comma'; readonly pos: SourcePos; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'call'; readonly pos: SourcePos; readonly callee: Expr; readonly args: readonly Expr[] }
  | { readonly kind: 'cast'; readonly pos: SourcePos; readonly type: CType; readonly arg: Expr }
  | { readonly kind: 'sizeof'; readonly pos: SourcePos }
  | { readonly kind: 'index'; readonly pos: SourcePos; readonly base: Expr; readonly index: Expr }
  | { readonly kind: 'member'; readonly pos: SourcePos; readonly base: Expr; readonly arrow: boolean; readonly field: string }
  /** A brace initializer `{ … }`: parsed (skipped) only to be rejected where it is used. */
  | { readonly kind: 'initlist'; readonly pos: SourcePos };

export type Stmt =
  | { readonly kind: 'expr'; readonly pos: SourcePos; readonly expr: Expr }
  | { readonly kind: 'decl'; readonly pos: SourcePos; readonly decl: Declaration }
  | { readonly kind: 'block'; readonly pos: SourcePos; readonly body: readonly Stmt[] }
  | { readonly kind: 'if'; readonly pos: SourcePos; readonly test: Condition; readonly then: Stmt; readonly else: Stmt | null }
  | { readonly kind: 'while'; readonly pos: SourcePos; readonly test: Condition; readonly body: Stmt }
  | { readonly kind: 'do'; readonly pos: SourcePos; readonly body: Stmt; readonly test: Condition }
  | {
      readonly kind: 'for';
      readonly pos: SourcePos;
      readonly init: Declaration | Expr | null;
      readonly test: Expr | null;
      readonly step: Expr | null;
      readonly body: Stmt;
    }
  | { readonly kind: 'break'; readonly pos: SourcePos }
  | { readonly kind: 'continue'; readonly pos: SourcePos }
  | { readonly kind: 'return'; readonly pos: SourcePos; readonly value: Expr | null }
  | { readonly kind: 'label'; readonly pos: SourcePos; readonly name: string; readonly body: Stmt }
  | { readonly kind: 'empty'; readonly pos: SourcePos };

/** A branch condition: an expression, or `*` (a non-deterministic choice). */
export type Condition = { readonly kind: 'nondet'; readonly pos: SourcePos } | { readonly kind: 'expr'; readonly expr: Expr };

export interface FunctionDef {
  readonly kind: 'function';
  readonly name: string;
  readonly pos: SourcePos;
  readonly type: CType & { readonly kind: 'function' };
  readonly storage: StorageClass;
  /** null when the body was skipped: a definition of a builtin (reach_error, __VERIFIER_assert, …). */
  readonly body: readonly Stmt[] | null;
  /** The closing brace (where control falls off the end). */
  readonly end: SourcePos;
}

export type ExternalDecl = FunctionDef | Declaration;

export interface TranslationUnit {
  readonly file: string;
  readonly decls: readonly ExternalDecl[];
  /** Every identifier spelled anywhere in the file: generated names avoid them. */
  readonly identifiers: ReadonlySet<string>;
  /** Enumeration constants declared anywhere (enums are outside the subset: a use is rejected). */
  readonly enumConstants: ReadonlySet<string>;
}
