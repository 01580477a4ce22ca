// C's integer types as gcc computes them on x86 (C11 6.2.5, 6.3.1, 6.4.4.1): their widths under the
// chosen data model, value ranges, integer promotions, the usual arithmetic conversions and the types
// of integer constants. Everything else (pointers, arrays, floating point, records) is rejected with
// an `unsupported:` diagnostic naming the type.
import type { DataModel, Program, SourcePos } from '../ir/cfg.js';
import { syntaxError, unsupported } from '../diagnostics.js';
import type { CType } from './ast.js';
import { typeName } from './parser.js';

export interface Range {
  readonly lo: bigint;
  readonly hi: bigint;
}

export interface IntType {
  /** Canonical C spelling: `int`, `unsigned long`, `signed char`, `char`, `_Bool`, … */
  readonly name: string;
  readonly bits: number;
  readonly signed: boolean;
  readonly isBool: boolean;
  /** Integer conversion rank (C11 6.3.1.1): _Bool < char < short < int < long < long long < __int128. */
  readonly rank: number;
  readonly range: Range;
}

interface TypeSpec {
  readonly rank: number;
  readonly signed: boolean;
  readonly bits: (model: DataModel) => number;
}

const fixed = (bits: number) => () => bits;
const longBits = (model: DataModel): number => (model === 'LP64' ? 64 : 32);

// `char` is signed, as gcc on x86 has it.
const SPECS: ReadonlyMap<string, TypeSpec> = new Map([
  ['_Bool', { rank: 0, signed: false, bits: fixed(1) }],
  ['char', { rank: 1, signed: true, bits: fixed(8) }],
  ['signed char', { rank: 1, signed: true, bits: fixed(8) }],
  ['unsigned char', { rank: 1, signed: false, bits: fixed(8) }],
  ['short', { rank: 2, signed: true, bits: fixed(16) }],
  ['unsigned short', { rank: 2, signed: false, bits: fixed(16) }],
  ['int', { rank: 3, signed: true, bits: fixed(32) }],
  ['unsigned int', { rank: 3, signed: false, bits: fixed(32) }],
  ['long', { rank: 4, signed: true, bits: longBits }],
  ['unsigned long', { rank: 4, signed: false, bits: longBits }],
  ['long long', { rank: 5, signed: true, bits: fixed(64) }],
  ['unsigned long long', { rank: 5, signed: false, bits: fixed(64) }],
  ['__int128', { rank: 6, signed: true, bits: fixed(128) }],
  ['unsigned __int128', { rank: 6, signed: false, bits: fixed(128) }],
]);

/** The unsigned type of the same rank (C11 6.3.1.8's last case), by signed name. */
const UNSIGNED_OF: ReadonlyMap<string, string> = new Map([
  ['char', 'unsigned char'],
  ['signed char', 'unsigned char'],
  ['short', 'unsigned short'],
  ['int', 'unsigned int'],
  ['long', 'unsigned long'],
  ['long long', 'unsigned long long'],
  ['__int128', 'unsigned __int128'],
]);

export function signedRange(bits: number): Range {
  const half = 1n << BigInt(bits - 1);
  return { lo: -half, hi: half - 1n };
}

export function unsignedRange(bits: number): Range {
  return { lo: 0n, hi: (1n << BigInt(bits)) - 1n };
}

export function contains(outer: Range, inner: Range): boolean {
  return outer.lo <= inner.lo && inner.hi <= outer.hi;
}

/** The integer types of one data model: lookups by name and C's conversion rules. */
export class IntTypes {
  private readonly byName = new Map<string, IntType>();

  constructor(readonly model: DataModel) {
    for (const [name, spec] of SPECS) {
      const bits = spec.bits(model);
      const isBool = name === '_Bool';
      const range = isBool ? { lo: 0n, hi: 1n } : spec.signed ? signedRange(bits) : unsignedRange(bits);
      this.byName.set(name, { name, bits, signed: spec.signed, isBool, rank: spec.rank, range });
    }
  }

  get int(): IntType {
    return this.named('int');
  }

  /** The type of `size_t`: unsigned int under ILP32, unsigned long under LP64. */
  get sizeT(): IntType {
    return this.named(this.model === 'LP64' ? 'unsigned long' : 'unsigned int');
  }

  named(name: string): IntType {
    const t = this.byName.get(name);
    if (!t) throw new Error(`internal: unknown integer type '${name}'`);
    return t;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Integer promotion (C11 6.3.1.1p2): every type of lower rank than int becomes int (int holds all
   * their values on every data model here). */
  promote(t: IntType): IntType {
    return t.rank < 3 ? this.int : t;
  }

  /** The usual arithmetic conversions (C11 6.3.1.8) of two operand types: the common type. */
  common(a: IntType, b: IntType): IntType {
    const x = this.promote(a);
    const y = this.promote(b);
    if (x.name === y.name) return x;
    if (x.signed === y.signed) return x.rank >= y.rank ? x : y;
    const [u, s] = x.signed ? [y, x] : [x, y];
    if (u.rank >= s.rank) return u;
    if (contains(s.range, u.range)) return s;
    return this.named(UNSIGNED_OF.get(s.name)!);
  }

  /** The type of an integer constant (C11 6.4.4.1p5): the first of its candidate list that holds the
   * value. gcc gives a decimal constant without `u` too large for `long long` the type __int128 (with
   * a warning); a constant too large for every type is an error. */
  literal(value: bigint, suffix: LiteralSuffix, decimal: boolean, pos: SourcePos, text: string): IntType {
    const candidates = literalCandidates(suffix, decimal);
    for (const name of candidates) {
      const t = this.named(name);
      if (value <= t.range.hi) return t;
    }
    if (decimal && !suffix.unsigned && value <= this.named('__int128').range.hi) return this.named('__int128');
    throw syntaxError(`integer constant '${text}' is too large for its type`, pos);
  }
}

export interface LiteralSuffix {
  readonly unsigned: boolean;
  /** Number of `l`s: 0, 1 (`l`) or 2 (`ll`). */
  readonly longs: 0 | 1 | 2;
}

function literalCandidates(s: LiteralSuffix, decimal: boolean): string[] {
  if (s.unsigned) {
    if (s.longs === 0) return ['unsigned int', 'unsigned long', 'unsigned long long'];
    if (s.longs === 1) return ['unsigned long', 'unsigned long long'];
    return ['unsigned long long'];
  }
  if (s.longs === 0) return decimal ? ['int', 'long', 'long long'] : ['int', 'unsigned int', 'long', 'unsigned long', 'long long', 'unsigned long long'];
  if (s.longs === 1) return decimal ? ['long', 'long long'] : ['long', 'unsigned long', 'long long', 'unsigned long long'];
  return decimal ? ['long long'] : ['long long', 'unsigned long long'];
}

/** `value` converted to type t (C11 6.3.1.3; gcc reduces modulo 2^N for signed targets too). */
export function convertConstant(value: bigint, t: IntType): bigint {
  if (t.isBool) return value !== 0n ? 1n : 0n;
  const modulus = 1n << BigInt(t.bits);
  let r = ((value % modulus) + modulus) % modulus;
  if (t.signed && r > t.range.hi) r -= modulus;
  return r;
}

/** Why a type is outside the subset, as an `unsupported:` detail; null when it is an integer type or void. */
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

/** The integer type of a variable, parameter or cast target; rejects everything else at `pos`. */
export function scalarType(types: IntTypes, t: CType, pos: SourcePos, what: string): IntType {
  const reason = unsupportedTypeReason(t);
  if (reason !== null) throw unsupported(reason, pos);
  if (t.kind !== 'base') throw unsupported(`type '${typeName(t)}'`, pos);
  if (t.base.kind === 'void') throw syntaxError(`${what} declared void`, pos);
  if (t.base.kind === 'bool') return types.named('_Bool');
  if (!types.has(t.base.name)) throw unsupported(`type '${t.base.name}'`, pos);
  return types.named(t.base.name);
}

/** A function's return type: an integer type, or null for void. */
export function returnType(types: IntTypes, t: CType, pos: SourcePos, functionName: string): IntType | null {
  if (isVoid(t)) return null;
  const reason = unsupportedTypeReason(t);
  if (reason !== null) throw unsupported(`return type of '${functionName}': ${reason}`, pos);
  return scalarType(types, t, pos, 'return value');
}

/** The C types of a procedure's variables (and the program's globals), for reading and writing C
 * expressions over them. */
export function typingOf(program: Program, fn: string): ExpressionTyping {
  const locals = program.procedures.get(fn)?.varTypes;
  const globals = new Map(program.globals.flatMap((g) => (g.type !== undefined ? [[g.name, g.type] as const] : [])));
  return { dataModel: program.dataModel ?? 'ILP32', typeOf: (ir) => locals?.get(ir) ?? globals.get(ir) };
}

/** The C types of the variables an expression reads: with them it is read with C's semantics
 * (conversions, unsigned wrap-around); without, every variable is read as a mathematical integer. */
export interface ExpressionTyping {
  readonly dataModel: DataModel;
  /** The C type name of an IR variable (`unsigned int`, …), when known. */
  typeOf(ir: string): string | undefined;
}
