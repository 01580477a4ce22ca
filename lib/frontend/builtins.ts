// Functions with built-in meaning: verification primitives (assume, assert, reach_error, abort, exit)
// and the SV-COMP non-determinism family. A definition of one of the replaceable names in the input is
// recognised by name and its body never lowered (SV-COMP preambles implement them with
// `__assert_fail`, strings and GNU extensions).
import type { SourcePos } from '../ir/cfg.js';
import { unsupported } from '../diagnostics.js';
import type { IntType, IntTypes } from './ctypes.js';

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

// `__VERIFIER_nondet_<suffix>`: the C type of the result.
const NONDET_TYPES: ReadonlyMap<string, string> = new Map([
  ['int', 'int'],
  ['uint', 'unsigned int'],
  ['unsigned', 'unsigned int'],
  ['long', 'long'],
  ['ulong', 'unsigned long'],
  ['longlong', 'long long'],
  ['ulonglong', 'unsigned long long'],
  ['short', 'short'],
  ['ushort', 'unsigned short'],
  ['char', 'char'],
  ['schar', 'signed char'],
  ['uchar', 'unsigned char'],
  ['bool', '_Bool'],
  ['_Bool', '_Bool'],
  ['u8', 'unsigned char'],
  ['u16', 'unsigned short'],
  ['u32', 'unsigned int'],
  ['u64', 'unsigned long long'],
  ['int128', '__int128'],
  ['uint128', 'unsigned __int128'],
  ['u128', 'unsigned __int128'],
]);

const NONDET_PREFIX = '__VERIFIER_nondet_';

/** Plain nondet helpers used by hand-written examples; their result is an `int` unless a prototype says otherwise. */
const PLAIN_NONDET = new Set(['nondet', 'nondet_int', 'unknown', '__VERIFIER_nondet']);

export function isNondetName(name: string): boolean {
  return name.startsWith(NONDET_PREFIX) || PLAIN_NONDET.has(name);
}

/** The C type of a nondet call's result (size_t follows the data model), or an `unsupported:` error
 * for non-integer kinds. */
export function nondetType(types: IntTypes, name: string, pos: SourcePos): IntType {
  if (PLAIN_NONDET.has(name)) return types.int;
  const suffix = name.slice(NONDET_PREFIX.length);
  if (suffix === 'size_t') return types.sizeT;
  const typeName = NONDET_TYPES.get(suffix);
  if (typeName !== undefined) return types.named(typeName);
  throw unsupported(`non-integer nondet function ${name}()`, pos);
}
