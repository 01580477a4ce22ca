// Evaluation of a clause's terms, as written, on concrete values: what a derivation is checked by.
// It reads the S-expressions directly (SMT-LIB semantics: Euclidean div and mod), sharing nothing
// with the lowering to the IR, so a derivation that passes holds of the input, not of its lowering.
import { headOf, type SExpr } from './sexpr.js';
import { letScope, lookupLet } from './parse.js';
import type { LetScope, Scoped } from './system.js';

export type ChcValue = bigint | boolean;

export class EvaluationError extends Error {}

/** What a partial evaluation (`evaluatePartially`) meets at a variable without a value: one object,
 * thrown without building a stack, since the runs meet it at most terms they try. */
const NO_VALUE = new EvaluationError('a variable has no value');
let partial = 0;

/** The value of `s`, or undefined when it reads a variable without a value or cannot be evaluated. */
export function evaluatePartially(s: Scoped, values: ReadonlyMap<string, ChcValue>): ChcValue | undefined {
  partial++;
  try {
    return evaluate(s, values);
  } catch (e) {
    if (e instanceof EvaluationError) return undefined;
    throw e;
  } finally {
    partial--;
  }
}

/** The value of `s` when the clause's variables have `values`. */
export function evaluate(s: Scoped, values: ReadonlyMap<string, ChcValue>, depth = 0): ChcValue {
  if (depth > 10_000) throw new EvaluationError('term nested too deeply');
  let { expr: e, scope } = s;
  while (headOf(e) === 'let' && e.kind === 'list') {
    scope = letScope(e, scope);
    e = e.items[2]!;
  }
  if (e.kind === 'string') throw new EvaluationError('string literal');
  if (e.kind === 'atom') return atom(e.text, e.quoted, scope, values, depth);
  const op = headOf(e);
  const args = e.items.slice(1);
  const value = (x: SExpr): ChcValue => evaluate({ expr: x, scope }, values, depth + 1);
  const int = (x: SExpr): bigint => {
    const v = value(x);
    if (typeof v !== 'bigint') throw new EvaluationError('expected an Int');
    return v;
  };
  const bool = (x: SExpr): boolean => {
    const v = value(x);
    if (typeof v !== 'boolean') throw new EvaluationError('expected a Bool');
    return v;
  };
  const pairs = (test: (a: bigint, b: bigint) => boolean): boolean => {
    const vs = args.map(int);
    for (let k = 1; k < vs.length; k++) if (!test(vs[k - 1]!, vs[k]!)) return false;
    return true;
  };
  switch (op) {
    case 'and': return args.every(bool);
    case 'or': return args.some(bool);
    case 'not': return !bool(args[0]!);
    case '=>': {
      let result = bool(args[args.length - 1]!);
      for (let k = args.length - 2; k >= 0; k--) result = !bool(args[k]!) || result;
      return result;
    }
    case 'xor': return args.map(bool).reduce((a, c) => a !== c);
    case 'ite': return bool(args[0]!) ? value(args[1]!) : value(args[2]!);
    case '=': {
      const vs = args.map(value);
      return vs.every((v) => v === vs[0]);
    }
    case 'distinct': {
      const vs = args.map(value);
      return vs.every((v, i) => vs.every((w, j) => i === j || v !== w));
    }
    case '<=': return pairs((a, b) => a <= b);
    case '<': return pairs((a, b) => a < b);
    case '>=': return pairs((a, b) => a >= b);
    case '>': return pairs((a, b) => a > b);
    case '+': return args.map(int).reduce((a, c) => a + c);
    case '-': {
      const vs = args.map(int);
      return vs.length === 1 ? -vs[0]! : vs.slice(1).reduce((a, c) => a - c, vs[0]!);
    }
    case '*': return args.map(int).reduce((a, c) => a * c);
    case 'div':
    case 'mod': {
      const x = int(args[0]!);
      const m = int(args[1]!);
      if (m === 0n) throw new EvaluationError('division by zero');
      const abs = m < 0n ? -m : m;
      const r = ((x % abs) + abs) % abs;
      return op === 'mod' ? r : (x - r) / m;
    }
    case 'abs': {
      const x = int(args[0]!);
      return x < 0n ? -x : x;
    }
    case '!': return value(args[0]!);
    default: throw new EvaluationError(`cannot evaluate '${op}'`);
  }
}

function atom(text: string, quoted: boolean, scope: LetScope | null, values: ReadonlyMap<string, ChcValue>, depth: number): ChcValue {
  const bound = lookupLet(scope, text);
  if (bound) return evaluate(bound, values, depth + 1);
  const v = values.get(text);
  if (v !== undefined) return v;
  if (!quoted) {
    if (/^[0-9]+$/.test(text)) return BigInt(text);
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  throw partial > 0 ? NO_VALUE : new EvaluationError(`no value for '${text}'`);
}
