// Which C types the subset supports and what they mean over mathematical integers: signed integer
// types (values unbounded in the analysis, the C range kept for nondet results) and _Bool (assignment
// converts to 0/1). Everything else is rejected with an `unsupported:` diagnostic naming the type;
// unsigned types in particular, because their wrap-around arithmetic is not modelled.
import type { SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import type { CType } from './ast.js';
import { BOOL_RANGE, signedRange, type Range } from './builtins.js';
import { typeName } from './parser.js';

export interface ScalarType {
  readonly name: string;
  readonly isBool: boolean;
  /** The C type's value range (used for nondet results; arithmetic itself is unbounded). */
  readonly range: Range;
}

const SIGNED_BITS: ReadonlyMap<string, number> = new Map([
  ['char', 8],
  ['signed char', 8],
  ['short', 16],
  ['int', 32],
  ['long', 64],
  ['long long', 64],
  ['__int128', 128],
]);

export const INT: ScalarType = { name: 'int', isBool: false, range: signedRange(32) };

/** Why a type is outside the subset, as an `unsupported:` detail; null when it is a supported scalar or void. */
export function unsupportedTypeReason(t: CType): string | null {
  switch (t.kind) {
    case 'pointer':
      return t.to.kind === 'function' ? `function pointer type '${typeName(t)}'` : `pointer type '${typeName(t)}'`;
    case 'array':
      return `array type '${typeName(t)}'`;
    case 'function':
      return `function type '${typeName(t)}'`;
    case 'base': {
      const b = t.base;
      if (b.unsigned) return `unsigned type '${b.name}' (wrap-around arithmetic is not modelled)`;
      switch (b.kind) {
        case 'integer':
        case 'bool':
        case 'void':
          return null;
        case 'float':
          return `floating-point type '${b.name}'`;
        case 'record':
          return `${b.name.split(' ')[0]} type '${b.name}'`;
        case 'other':
          return `type '${b.name}'`;
      }
    }
  }
}

export function isVoid(t: CType): boolean {
  return t.kind === 'base' && t.base.kind === 'void';
}

/** The scalar type of a variable, parameter or cast target; rejects everything else at `pos`. */
export function scalarType(t: CType, pos: SourcePos, what: string): ScalarType {
  const reason = unsupportedTypeReason(t);
  if (reason !== null) throw unsupported(reason, pos);
  if (t.kind !== 'base') throw unsupported(`type '${typeName(t)}'`, pos);
  if (t.base.kind === 'void') throw syntaxError(`${what} declared void`, pos);
  if (t.base.kind === 'bool') return { name: '_Bool', isBool: true, range: BOOL_RANGE };
  const bits = SIGNED_BITS.get(t.base.name);
  if (bits === undefined) throw unsupported(`type '${t.base.name}'`, pos);
  return { name: t.base.name, isBool: false, range: signedRange(bits) };
}

/** A function's return type: a scalar or null for void. */
export function returnType(t: CType, pos: SourcePos, functionName: string): ScalarType | null {
  if (isVoid(t)) return null;
  const reason = unsupportedTypeReason(t);
  if (reason !== null) throw unsupported(`return type of '${functionName}': ${reason}`, pos);
  return scalarType(t, pos, 'return value');
}
