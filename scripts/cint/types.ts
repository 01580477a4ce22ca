// C's integer types for the gcc-differential tester (scripts/cint/): widths and signedness under a
// data model, value ranges, conversions, the integer promotions, the usual arithmetic conversions and
// the type of an integer literal (C11 6.3.1, 6.4.4.1). The generator uses them to build well-typed
// programs without undefined behaviour it cannot see, and the reference evaluator to compute exact
// values. Everything is exact bigint arithmetic; no value is ever a floating-point number.

export type DataModel = 'ILP32' | 'LP64';

/** The integer types, by a short name; `spell` gives the C spelling. `char` is signed (as on x86). */
export type IntType = 'bool' | 'char' | 'schar' | 'uchar' | 'short' | 'ushort' | 'int' | 'uint' | 'long' | 'ulong' | 'llong' | 'ullong';

export const ALL_TYPES: readonly IntType[] = ['bool', 'char', 'schar', 'uchar', 'short', 'ushort', 'int', 'uint', 'long', 'ulong', 'llong', 'ullong'];

/** The signed types (and `_Bool`, which the front end accepted before issue 18). */
export const SIGNED_ONLY_TYPES: readonly IntType[] = ['bool', 'char', 'schar', 'short', 'int', 'long', 'llong'];

const SPELLING: Record<IntType, string> = {
  bool: '_Bool',
  char: 'char',
  schar: 'signed char',
  uchar: 'unsigned char',
  short: 'short',
  ushort: 'unsigned short',
  int: 'int',
  uint: 'unsigned int',
  long: 'long',
  ulong: 'unsigned long',
  llong: 'long long',
  ullong: 'unsigned long long',
};

/** Conversion rank (C11 6.3.1.1): _Bool < char types < short < int < long < long long. */
const RANK: Record<IntType, number> = {
  bool: 0, char: 1, schar: 1, uchar: 1, short: 2, ushort: 2, int: 3, uint: 3, long: 4, ulong: 4, llong: 5, ullong: 5,
};

export function spell(t: IntType): string {
  return SPELLING[t];
}

export function isSigned(t: IntType): boolean {
  return t === 'char' || t === 'schar' || t === 'short' || t === 'int' || t === 'long' || t === 'llong';
}

export function bits(t: IntType, dm: DataModel): number {
  switch (t) {
    case 'bool': return 1;
    case 'char': case 'schar': case 'uchar': return 8;
    case 'short': case 'ushort': return 16;
    case 'int': case 'uint': return 32;
    case 'long': case 'ulong': return dm === 'LP64' ? 64 : 32;
    case 'llong': case 'ullong': return 64;
  }
}

export interface Range {
  readonly lo: bigint;
  readonly hi: bigint;
}

export function range(t: IntType, dm: DataModel): Range {
  const b = BigInt(bits(t, dm));
  if (t === 'bool') return { lo: 0n, hi: 1n };
  return isSigned(t) ? { lo: -(1n << (b - 1n)), hi: (1n << (b - 1n)) - 1n } : { lo: 0n, hi: (1n << b) - 1n };
}

export function inRange(v: bigint, t: IntType, dm: DataModel): boolean {
  const r = range(t, dm);
  return v >= r.lo && v <= r.hi;
}

/** C's conversion of an integer value to type t: to _Bool, nonzero is 1; otherwise the value modulo
 * 2^width in t's range (for signed targets implementation-defined, and gcc defines it so). */
export function convert(v: bigint, t: IntType, dm: DataModel): bigint {
  if (t === 'bool') return v === 0n ? 0n : 1n;
  const b = BigInt(bits(t, dm));
  const m = 1n << b;
  let r = ((v % m) + m) % m;
  if (isSigned(t) && r >= m >> 1n) r -= m;
  return r;
}

/** The integer promotions: every type of lower rank than int becomes int (all their values fit). */
export function promote(t: IntType): IntType {
  return RANK[t] < RANK.int ? 'int' : t;
}

function toUnsigned(t: IntType): IntType {
  switch (t) {
    case 'int': return 'uint';
    case 'long': return 'ulong';
    case 'llong': return 'ullong';
    default: return t;
  }
}

/** The usual arithmetic conversions (C11 6.3.1.8): the common type of a binary operation. */
export function commonType(a: IntType, b: IntType, dm: DataModel): IntType {
  const x = promote(a);
  const y = promote(b);
  if (x === y) return x;
  if (isSigned(x) === isSigned(y)) return RANK[x] >= RANK[y] ? x : y;
  const [u, s] = isSigned(x) ? [y, x] : [x, y];
  if (RANK[u] >= RANK[s]) return u;
  if (bits(s, dm) > bits(u, dm)) return s;
  return toUnsigned(s);
}

export type LiteralBase = 'dec' | 'hex' | 'oct';
/** An integer suffix as written (case and order as in the source): '', 'u', 'L', 'ull', 'LLU', … */
export type LiteralSuffix = string;

/** The type of an integer literal (C11 6.4.4.1): the first of the list for its suffix and base in
 * which the value fits; null when none does (the generator never writes such a literal). */
export function literalType(value: bigint, base: LiteralBase, suffix: LiteralSuffix, dm: DataModel): IntType | null {
  const s = suffix.toLowerCase();
  const unsigned = s.includes('u');
  const ls = s.replace('u', '');
  let list: IntType[];
  if (ls === '') list = unsigned ? ['uint', 'ulong', 'ullong'] : base === 'dec' ? ['int', 'long', 'llong'] : ['int', 'uint', 'long', 'ulong', 'llong', 'ullong'];
  else if (ls === 'l') list = unsigned ? ['ulong', 'ullong'] : base === 'dec' ? ['long', 'llong'] : ['long', 'ulong', 'llong', 'ullong'];
  else if (ls === 'll') list = unsigned ? ['ullong'] : base === 'dec' ? ['llong'] : ['llong', 'ullong'];
  else throw new Error(`bad integer suffix '${suffix}'`);
  return list.find((t) => inRange(value, t, dm)) ?? null;
}
