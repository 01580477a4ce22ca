// A loop's step repeated many times in one go, for the concrete runs (runs.ts). A phase of a loop
// can be long (a counter to 10^8 before the next branch is taken), longer than any run budget, and
// the states of the phases after it are what propose and filter their candidates.
//
// Where a clause takes a body state s to s + d, and its instance at s + k·d takes it to
// s + (k+1)·d, the instances in between are instances too when the clause reads its terms the same
// way at both ends: every comparison, `ite` condition and Boolean has the same value, every `div`
// and `mod` stays in one block, every absolute value keeps its sign, and every variable's value
// changed by a multiple of k. Each term is then linear along the segment (the instance at j has
// every variable at v0 + j·(vk - v0)/k), a linear term that keeps its sign at both ends keeps it in
// between, so every condition, and the constraint, holds at every j: the states s + d, …,
// s + (k+1)·d are all derived. The check reads the clause as written (evaluate.ts), not its
// lowering.
import { headOf, type SExpr } from './sexpr.js';
import { letScope, lookupLet } from './parse.js';
import type { ChcValue } from './evaluate.js';
import { euclideanMod } from './features.js';
import type { Clause, LetScope, Scoped } from './system.js';

/** Thrown when the two ends read a term differently (one object: it is met often). */
class NotUniform extends Error {}
const NOT_UNIFORM = new NotUniform('the segment reads a term differently at its ends');

type Pair = readonly [ChcValue, ChcValue];

/**
 * True when every instance of `clause` between the instance with variables `start` and the one
 * with `end`, k steps later (variables interpolated linearly), is an instance: the constraint holds
 * at both ends and the clause reads every term the same way at both.
 */
export function uniformSegment(clause: Clause, start: ReadonlyMap<string, ChcValue>, end: ReadonlyMap<string, ChcValue>, k: bigint): boolean {
  if (k < 1n) return false;
  for (const v of clause.vars) {
    const a = start.get(v.name);
    const b = end.get(v.name);
    if (a === undefined || b === undefined || typeof a !== typeof b) return false;
    if (typeof a === 'boolean' ? a !== b : ((b as bigint) - a) % k !== 0n) return false;
  }
  try {
    for (const t of clause.constraint) {
      const [a, b] = pair(t, start, end, 0);
      if (a !== true || b !== true) return false;
    }
    if (clause.head) for (const t of clause.head.args) pair(t, start, end, 0);
    for (const app of clause.body) for (const t of app.args) pair(t, start, end, 0);
    return true;
  } catch (e) {
    if (e instanceof NotUniform) return false;
    throw e;
  }
}

/** The values of `s` at both ends; NOT_UNIFORM when it is not linear along the segment (or cannot be
 * evaluated). */
function pair(s: Scoped, start: ReadonlyMap<string, ChcValue>, end: ReadonlyMap<string, ChcValue>, depth: number): Pair {
  if (depth > 10_000) throw NOT_UNIFORM;
  let { expr: e, scope } = s;
  while (headOf(e) === 'let' && e.kind === 'list') {
    scope = letScope(e, scope);
    e = e.items[2]!;
  }
  if (e.kind === 'string') throw NOT_UNIFORM;
  if (e.kind === 'atom') return atom(e.text, e.quoted, scope, start, end, depth);
  const op = headOf(e);
  const args = e.items.slice(1);
  const value = (x: SExpr): Pair => pair({ expr: x, scope }, start, end, depth + 1);
  const int = (x: SExpr): readonly [bigint, bigint] => {
    const [a, b] = value(x);
    if (typeof a !== 'bigint' || typeof b !== 'bigint') throw NOT_UNIFORM;
    return [a, b];
  };
  // A Boolean the same at both ends (its parts are linear, so the same in between).
  const bool = (x: SExpr): boolean => {
    const [a, b] = value(x);
    if (typeof a !== 'boolean' || a !== b) throw NOT_UNIFORM;
    return a;
  };
  const same = (v: boolean): Pair => [v, v];
  const sign = (x: bigint): number => (x > 0n ? 1 : x < 0n ? -1 : 0);
  // A comparison of linear terms: the same outcome at both ends is the outcome between.
  const compare = (test: (a: bigint, b: bigint) => boolean): Pair => {
    const vs = args.map(int);
    let all = true;
    for (let k = 1; k < vs.length; k++) {
      const [a, b] = [test(vs[k - 1]![0], vs[k]![0]), test(vs[k - 1]![1], vs[k]![1])];
      if (a !== b) throw NOT_UNIFORM;
      all &&= a;
    }
    return same(all);
  };
  // Two terms unequal at both ends stay unequal between when their difference keeps its sign.
  const equal = (x: Pair, y: Pair): boolean => {
    if (typeof x[0] === 'boolean' || typeof y[0] === 'boolean') {
      if (x[0] !== x[1] || y[0] !== y[1]) throw NOT_UNIFORM;
      return x[0] === y[0];
    }
    const d0 = sign((x[0] as bigint) - (y[0] as bigint));
    const d1 = sign((x[1] as bigint) - (y[1] as bigint));
    if (d0 !== d1) throw NOT_UNIFORM;
    return d0 === 0;
  };
  switch (op) {
    case 'and': return same(args.map(bool).every((b) => b));
    case 'or': return same(args.map(bool).some((b) => b));
    case 'not': return same(!bool(args[0]!));
    case '=>': {
      const vs = args.map(bool);
      let result = vs[vs.length - 1]!;
      for (let k = vs.length - 2; k >= 0; k--) result = !vs[k]! || result;
      return same(result);
    }
    case 'xor': return same(args.map(bool).reduce((a, c) => a !== c));
    case 'ite': return bool(args[0]!) ? value(args[1]!) : value(args[2]!);
    case '=': {
      const vs = args.map(value);
      return same(vs.every((v) => equal(v, vs[0]!)));
    }
    case 'distinct': {
      const vs = args.map(value);
      return same(vs.every((v, i) => vs.every((w, j) => i === j || !equal(v, w))));
    }
    case '<=': return compare((a, b) => a <= b);
    case '<': return compare((a, b) => a < b);
    case '>=': return compare((a, b) => a >= b);
    case '>': return compare((a, b) => a > b);
    case '+': return args.map(int).reduce((a, c) => [a[0] + c[0], a[1] + c[1]]);
    case '-': {
      const vs = args.map(int);
      return vs.length === 1 ? [-vs[0]![0], -vs[0]![1]] : vs.slice(1).reduce((a, c) => [a[0] - c[0], a[1] - c[1]], vs[0]!);
    }
    case '*': {
      // Linear only with at most one factor that changes along the segment.
      const vs = args.map(int);
      if (vs.filter(([a, b]) => a !== b).length > 1) throw NOT_UNIFORM;
      return vs.reduce((a, c) => [a[0] * c[0], a[1] * c[1]]);
    }
    case 'div':
    case 'mod': {
      const [x0, x1] = int(args[0]!);
      const [m0, m1] = int(args[1]!);
      if (m0 !== m1 || m0 === 0n) throw NOT_UNIFORM;
      const abs = m0 < 0n ? -m0 : m0;
      const r0 = euclideanMod(x0, abs);
      const r1 = euclideanMod(x1, abs);
      const q0 = (x0 - r0) / m0;
      const q1 = (x1 - r1) / m0;
      // One block at both ends (x is monotone along the segment): the quotient is constant between.
      if (q0 !== q1) throw NOT_UNIFORM;
      return op === 'mod' ? [r0, r1] : [q0, q1];
    }
    case 'abs': {
      const [x0, x1] = int(args[0]!);
      if ((x0 < 0n) !== (x1 < 0n)) throw NOT_UNIFORM;
      return [x0 < 0n ? -x0 : x0, x1 < 0n ? -x1 : x1];
    }
    case '!': return value(args[0]!);
    default: throw NOT_UNIFORM;
  }
}

function atom(text: string, quoted: boolean, scope: LetScope | null, start: ReadonlyMap<string, ChcValue>, end: ReadonlyMap<string, ChcValue>, depth: number): Pair {
  const bound = lookupLet(scope, text);
  if (bound) return pair(bound, start, end, depth + 1);
  const a = start.get(text);
  const b = end.get(text);
  if (a !== undefined && b !== undefined) return [a, b];
  if (!quoted) {
    if (/^[0-9]+$/.test(text)) return [BigInt(text), BigInt(text)];
    if (text === 'true') return [true, true];
    if (text === 'false') return [false, false];
  }
  throw NOT_UNIFORM;
}
