// Functions with built-in meaning: verification primitives (assume, assert, reach_error, abort, exit)
// and the SV-COMP non-determinism family. A definition of one of the replaceable names in the input is
// recognised by name and its body never lowered (SV-COMP preambles implement them with
// `__assert_fail`, strings and GNU extensions).
import type { SourcePos } from '../ir/cfg.js';
import { unsupported } from '../diagnostics.js';

export type BuiltinKind = 'assume' | 'assert' | 'error' | 'abort';

const BUILTINS: ReadonlyMap<string, BuiltinKind> = new Map<string, BuiltinKind>([
  ['assume', 'assume'],
  ['__VERIFIER_assume', 'assume'],
  ['assume_abort_if_not', 'assume'],
  ['assert', 'assert'],
  ['__VERIFIER_assert', 'assert'],
  ['reach_error', 'error'],
  ['__VERIFIER_error', 'error'],
  ['abort', 'abort'],
  ['exit', 'abort'],
  ['_Exit', 'abort'],
]);

/** Names whose definitions in the input are replaced by the builtin semantics. */
export const REPLACEABLE_DEFINITIONS: ReadonlySet<string> = new Set([
  'reach_error', '__VERIFIER_error', '__VERIFIER_assert', 'assume_abort_if_not', '__VERIFIER_assume', 'assert', 'assume',
]);

export function builtinKind(name: string): BuiltinKind | undefined {
  return BUILTINS.get(name);
}

/** Number of arguments each builtin takes (exit takes its status, which is ignored). */
export function builtinArity(kind: BuiltinKind, name: string): number {
  if (kind === 'assume' || kind === 'assert') return 1;
  if (kind === 'abort' && name !== 'abort') return 1;
  return 0;
}

export interface Range {
  readonly lo: bigint;
  readonly hi: bigint;
}

export function signedRange(bits: number): Range {
  const half = 1n << BigInt(bits - 1);
  return { lo: -half, hi: half - 1n };
}

export const BOOL_RANGE: Range = { lo: 0n, hi: 1n };

// `__VERIFIER_nondet_<suffix>` with a signed (or bool) result: the value range of the C type.
const NONDET_SIGNED: ReadonlyMap<string, Range> = new Map([
  ['int', signedRange(32)],
  ['long', signedRange(64)],
  ['longlong', signedRange(64)],
  ['short', signedRange(16)],
  ['char', signedRange(8)],
  ['schar', signedRange(8)],
  ['bool', BOOL_RANGE],
  ['_Bool', BOOL_RANGE],
]);

const NONDET_UNSIGNED: ReadonlyMap<string, string> = new Map([
  ['uint', 'unsigned int'],
  ['unsigned', 'unsigned int'],
  ['ulong', 'unsigned long'],
  ['ulonglong', 'unsigned long long'],
  ['ushort', 'unsigned short'],
  ['uchar', 'unsigned char'],
  ['size_t', 'size_t'],
  ['u8', 'unsigned char'],
  ['u16', 'unsigned short'],
  ['u32', 'unsigned int'],
  ['u64', 'unsigned long'],
  ['u128', 'unsigned __int128'],
]);

const NONDET_PREFIX = '__VERIFIER_nondet_';

/** Plain nondet helpers used by hand-written examples; their result is an `int`. */
const PLAIN_NONDET = new Set(['nondet', 'nondet_int', 'unknown', '__VERIFIER_nondet']);

export function isNondetName(name: string): boolean {
  return name.startsWith(NONDET_PREFIX) || PLAIN_NONDET.has(name);
}

/**
 * The value range of a nondet call's result, or an `unsupported:` error for unsigned and non-integer
 * kinds (wrap-around arithmetic and other types are not modelled).
 */
export function nondetRange(name: string, pos: SourcePos): Range {
  if (PLAIN_NONDET.has(name)) return signedRange(32);
  const suffix = name.slice(NONDET_PREFIX.length);
  const signed = NONDET_SIGNED.get(suffix);
  if (signed) return signed;
  const unsignedType = NONDET_UNSIGNED.get(suffix);
  if (unsignedType !== undefined) {
    throw unsupported(`unsigned type '${unsignedType}' in ${name}() (wrap-around arithmetic is not modelled)`, pos);
  }
  throw unsupported(`non-integer nondet function ${name}()`, pos);
}
