// Random programs over all of C's integer types for the gcc-differential tester (issue 18): a few
// globals (some with constant initialisers: suffixed, hex, octal, negative and out-of-range literals)
// and one `void f(params)` with locals and 5–25 statements — assignments and compound assignments,
// ++/-- (also inside expressions), casts, mixed signed/unsigned arithmetic and comparisons, unary
// - and ~, shifts, division and remainder by constants, && || !, ?:, if/else and small nested for
// loops — ending with a copy of every parameter and local into a result global, so that every value f
// computed is observable. Deterministic for a seed (lib/random.ts).
//
// The programs stay inside what the front end is meant to support (products with a constant factor,
// `/` `%` and shifts by constants, no bitwise & | ^) and avoid undefined behaviour that neither gcc's
// sanitizer nor farkas can see: a variable incremented inside an expression occurs nowhere else in that
// full expression (no unsequenced modification), every local is initialised, shift counts are within
// the promoted width, divisors are non-zero constants, and no operation that can overflow has only
// constant operands (gcc would fold it at compile time and never report it). Signed overflow and
// left shifts of negative or too large values remain possible: they depend on the inputs, and
// classifying them is part of the test.
import { mulberry32 } from '../../lib/random.js';
import type { CProgram, Decl, Expr, Literal, Stmt, AssignOp, CompareOp } from './ast.js';
import { countOccurrences, isConstant, typeOf } from './ast.js';
import { ALL_TYPES, SIGNED_ONLY_TYPES, bits, isSigned, literalType, promote, range, type DataModel, type IntType, type LiteralBase } from './types.js';

export interface GeneratorOptions {
  readonly dataModel: DataModel;
  /** 'all' (default): every integer type, `~` and shifts. 'signed-only': the subset the front end
   * accepted before issue 18 — signed types and _Bool, literals of signed type, no `~`, no shifts. */
  readonly types?: 'signed-only' | 'all';
  /** Statements of f besides the final copies (each nested statement counts); default 5–25. */
  readonly minStatements?: number;
  readonly maxStatements?: number;
  /** Expression depth; default 3. */
  readonly maxDepth?: number;
}

/** The generator's seed of program `index` of a run with `seed`: every program is reproducible alone. */
export function programSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x5bd1e995, 0x9e3779b1) + Math.imul(index + 1, 0x85ebca6b)) >>> 0;
}

/** Program `index` of the run with `seed`. */
export function generateProgram(seed: number, index: number, options: GeneratorOptions): CProgram {
  return new CIntGenerator(mulberry32(programSeed(seed, index)), options).program(`${seed}-${index}-${options.dataModel}`);
}

/** Random 64 bits, from two 32-bit draws (exact integers). */
function random64(rand: () => number): bigint {
  const hi = BigInt(Math.floor(rand() * 4294967296));
  const lo = BigInt(Math.floor(rand() * 4294967296));
  return (hi << 32n) | lo;
}

/** A value of type t, biased to the boundaries and to small values. */
export function interestingValue(rand: () => number, t: IntType, dm: DataModel): bigint {
  const { lo, hi } = range(t, dm);
  const pickIndex = (n: number): number => Math.floor(rand() * n);
  const r = rand();
  let v: bigint;
  if (r < 0.3) {
    v = BigInt(pickIndex(21) - 10);
  } else if (r < 0.6) {
    const cands = [0n, 1n, -1n, lo, lo + 1n, hi, hi - 1n, 2n, -2n];
    v = cands[pickIndex(cands.length)]!;
  } else if (r < 0.85) {
    const k = BigInt(pickIndex(bits(t, dm)));
    v = (1n << k) + BigInt(pickIndex(3) - 1);
    if (rand() < 0.4) v = -v;
  } else {
    v = lo + (random64(rand) % (hi - lo + 1n));
  }
  if (v < lo || v > hi) v = v < lo ? lo : hi;
  return v;
}

const ULLONG_MAX = (1n << 64n) - 1n;

type Scope = {
  /** Variables that may be assigned (params, locals, globals other than the result globals). */
  readonly writable: readonly string[];
  /** Also the loop counters in scope. */
  readonly readable: readonly string[];
};

export class CIntGenerator {
  private readonly dm: DataModel;
  private readonly allTypes: boolean;
  private readonly maxDepth: number;
  private readonly types = new Map<string, IntType>();
  private loops = 0;

  constructor(private readonly rand: () => number, private readonly options: GeneratorOptions) {
    this.dm = options.dataModel;
    this.allTypes = (options.types ?? 'all') === 'all';
    this.maxDepth = options.maxDepth ?? 3;
  }

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  private chance(p: number): boolean {
    return this.rand() < p;
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }

  /** Picks an index by weight. */
  private weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0);
    let r = this.rand() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i]!;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  private typePool(): readonly IntType[] {
    return this.allTypes ? ALL_TYPES : SIGNED_ONLY_TYPES;
  }

  private randomType(): IntType {
    // int-sized and wider types a little more often: they are where overflow and wrap-around happen.
    const pool = this.typePool();
    if (this.chance(0.35)) return this.pick(pool.filter((t) => t === 'int' || t === 'uint' || t === 'long' || t === 'ulong' || t === 'llong' || t === 'ullong'));
    return this.pick(pool);
  }

  private typeOf(e: Expr): IntType {
    return typeOf(e, this.types, this.dm);
  }

  // --- literals -----------------------------------------------------------------------------------

  /** A literal of the given magnitude with a random base and suffix, valid (it has a type) and, for
   * 'signed-only', of signed type. */
  private literal(value: bigint, options: { unsignedOk?: boolean } = {}): Literal {
    const unsignedOk = this.allTypes && (options.unsignedOk ?? true);
    const base: LiteralBase = this.weighted([6, 3, 1]) === 0 ? 'dec' : this.chance(0.75) ? 'hex' : 'oct';
    const suffixes = unsignedOk
      ? ['', '', '', 'u', 'U', 'l', 'L', 'ul', 'UL', 'lu', 'LU', 'll', 'LL', 'ull', 'ULL', 'llu', 'LLU', 'uLL', 'Ull']
      : ['', '', '', 'l', 'L', 'll', 'LL'];
    const candidates: Literal[] = [
      { kind: 'lit', value, base, suffix: this.pick(suffixes), upper: this.chance(0.3) },
      { kind: 'lit', value, base: 'dec', suffix: this.pick(suffixes) },
      { kind: 'lit', value, base: 'dec', suffix: unsignedOk ? 'ULL' : 'LL' },
    ];
    for (const l of candidates) {
      const t = literalType(l.value, l.base, l.suffix, this.dm);
      if (t && (unsignedOk || isSigned(t))) return l;
    }
    // Only a magnitude above LLONG_MAX without unsigned types gets here: take a smaller (non-zero) one.
    const smaller = value & ((1n << 62n) - 1n);
    return { kind: 'lit', value: smaller === 0n ? 1n : smaller, base: 'dec', suffix: 'LL' };
  }

  /** A magnitude for a literal: small, or near a boundary of some type. */
  private literalMagnitude(): bigint {
    if (this.chance(0.5)) return BigInt(this.int(0, 12));
    const t = this.pick(ALL_TYPES);
    const v = interestingValue(this.rand, t, this.pick(['ILP32', 'LP64'] as const));
    const m = v < 0n ? -v : v;
    return this.chance(0.2) && m < ULLONG_MAX ? m + 1n : m;
  }

  /** A constant operand: a literal or a negated literal. */
  private constant(options: { nonZero?: boolean; small?: boolean } = {}): Expr {
    let m: bigint;
    if (options.small || this.chance(0.7)) m = BigInt(this.pick([0, 1, 1, 2, 2, 3, 3, 4, 5, 7, 8, 10, 16, 100, 255, 256, 1000, 65535, 65536]));
    else m = this.literalMagnitude();
    if (options.nonZero && m === 0n) m = BigInt(this.int(1, 9));
    const lit = this.literal(m);
    return this.chance(0.3) && lit.value !== 0n ? { kind: 'unary', op: '-', arg: lit } : lit;
  }

  // --- expressions --------------------------------------------------------------------------------

  private variable(scope: Scope): Expr {
    return { kind: 'var', name: this.pick(scope.readable) };
  }

  private leaf(scope: Scope): Expr {
    const k = this.weighted([60, 25, 8]);
    if (k === 0) return this.variable(scope);
    if (k === 1) {
      const lit = this.literal(this.literalMagnitude());
      return this.chance(0.25) && lit.value !== 0n ? { kind: 'unary', op: '-', arg: lit } : lit;
    }
    return { kind: 'incdec', op: this.chance(0.5) ? '++' : '--', prefix: this.chance(0.5), name: this.pick(scope.writable) };
  }

  /** An expression with a variable in it. */
  private nonConstant(scope: Scope, depth: number): Expr {
    for (let i = 0; i < 4; i++) {
      const e = this.expr(scope, depth);
      if (!isConstant(e)) return e;
    }
    return this.variable(scope);
  }

  /** An expression whose promoted type has the given signedness (for mixed comparisons). */
  private withSignedness(scope: Scope, depth: number, signed: boolean): Expr {
    for (let i = 0; i < 4; i++) {
      const e = this.chance(0.5) ? this.leaf(scope) : this.expr(scope, depth);
      if (isSigned(promote(this.typeOf(e))) === signed) return e;
    }
    const target: IntType = signed ? this.pick(['char', 'short', 'ushort', 'int', 'long', 'llong', 'uchar', 'bool']) : this.pick(['uint', 'ulong', 'ullong']);
    if (!signed && this.chance(0.4)) return this.literal(this.literalMagnitude(), { unsignedOk: true });
    return { kind: 'cast', type: target, arg: this.expr(scope, depth) };
  }

  expr(scope: Scope, depth: number): Expr {
    if (depth <= 0) return this.leaf(scope);
    const d = depth - 1;
    // leaf, unary -, ~, !, + -, *, / %, shifts, comparison, && ||, ?:, cast, ++/--
    const k = this.weighted([14, 6, this.allTypes ? 5 : 0, 3, 20, 6, 6, this.allTypes ? 6 : 0, 14, 4, 5, 12, 3]);
    switch (k) {
      case 0: return this.leaf(scope);
      case 1: return { kind: 'unary', op: '-', arg: this.nonConstant(scope, d) };
      case 2: return { kind: 'unary', op: '~', arg: this.expr(scope, d) };
      case 3: return { kind: 'unary', op: '!', arg: this.expr(scope, d) };
      case 4: {
        const left = this.expr(scope, d);
        const right = isConstant(left) ? this.nonConstant(scope, d) : this.expr(scope, d);
        return { kind: 'binary', op: this.chance(0.5) ? '+' : '-', left, right };
      }
      case 5: {
        const e = this.nonConstant(scope, d);
        const c = this.constant();
        return this.chance(0.5) ? { kind: 'binary', op: '*', left: e, right: c } : { kind: 'binary', op: '*', left: c, right: e };
      }
      case 6:
        return { kind: 'binary', op: this.chance(0.5) ? '/' : '%', left: this.nonConstant(scope, d), right: this.constant({ nonZero: true }) };
      case 7: {
        const op = this.chance(0.5) ? '<<' : '>>';
        let left = this.nonConstant(scope, d);
        // Left shifts of negative or large signed values are undefined behaviour farkas does not model
        // (the program is then skipped): shift an unsigned value more often than not.
        if (op === '<<' && isSigned(promote(this.typeOf(left))) && this.chance(0.6)) left = { kind: 'cast', type: this.pick(['uint', 'ulong', 'ullong']), arg: left };
        return { kind: 'binary', op, left, right: this.shiftCount(promote(this.typeOf(left))) };
      }
      case 8: {
        const op = this.pick<CompareOp>(['<', '<=', '>', '>=', '==', '!=']);
        const left = this.expr(scope, d);
        const right = this.allTypes && this.chance(0.6)
          ? this.withSignedness(scope, d, !isSigned(promote(this.typeOf(left))))
          : this.expr(scope, d);
        return { kind: 'binary', op, left, right };
      }
      case 9:
        return { kind: 'binary', op: this.chance(0.5) ? '&&' : '||', left: this.expr(scope, d), right: this.expr(scope, d) };
      case 10:
        return { kind: 'cond', cond: this.expr(scope, d), then: this.expr(scope, d), else: this.expr(scope, d) };
      case 11:
        return { kind: 'cast', type: this.allTypes ? this.pick(ALL_TYPES) : this.pick(SIGNED_ONLY_TYPES), arg: this.expr(scope, d) };
      default:
        return { kind: 'incdec', op: this.chance(0.5) ? '++' : '--', prefix: this.chance(0.5), name: this.pick(scope.writable) };
    }
  }

  /** A shift count for a left operand of (promoted) type t: 0 … width - 1, mostly small. */
  private shiftCount(t: IntType): Literal {
    const w = bits(t, this.dm);
    const n = this.chance(0.7) ? this.int(0, Math.min(7, w - 1)) : this.chance(0.5) ? this.int(0, w - 1) : w - 1 - this.int(0, 1);
    return this.chance(0.8) ? { kind: 'lit', value: BigInt(n), base: 'dec', suffix: '' } : this.literal(BigInt(n));
  }

  // --- statements ---------------------------------------------------------------------------------

  /** Replaces each ++/-- of a variable that occurs elsewhere in the same full expression (or is
   * its assignment's target) by a plain read: C leaves such unsequenced modifications undefined. */
  private sequenced(e: Expr, counts: ReadonlyMap<string, number>): Expr {
    switch (e.kind) {
      case 'var': case 'lit': return e;
      case 'incdec': return (counts.get(e.name) ?? 0) > 1 ? { kind: 'var', name: e.name } : e;
      case 'unary': return { ...e, arg: this.sequenced(e.arg, counts) };
      case 'cast': return { ...e, arg: this.sequenced(e.arg, counts) };
      case 'binary': return { ...e, left: this.sequenced(e.left, counts), right: this.sequenced(e.right, counts) };
      case 'cond': return { ...e, cond: this.sequenced(e.cond, counts), then: this.sequenced(e.then, counts), else: this.sequenced(e.else, counts) };
    }
  }

  private fullExpression(e: Expr, target?: string): Expr {
    const counts = countOccurrences(e, new Map());
    if (target !== undefined) counts.set(target, (counts.get(target) ?? 0) + 1);
    return this.sequenced(e, counts);
  }

  private assignment(scope: Scope): Stmt {
    const target = this.pick(scope.writable);
    const t = this.types.get(target)!;
    const ops: AssignOp[] = ['=', '=', '=', '+=', '-=', '*=', '/=', '%='];
    if (this.allTypes) ops.push('<<=', '>>=');
    let op = this.pick(ops);
    if (op === '<<=' && isSigned(promote(t)) && this.chance(0.6)) op = '>>=';
    let value: Expr;
    switch (op) {
      case '*=': value = this.constant(); break;
      case '/=': case '%=': value = this.constant({ nonZero: true }); break;
      case '<<=': case '>>=': value = this.shiftCount(promote(t)); break;
      default: value = this.expr(scope, this.int(0, this.maxDepth));
    }
    return { kind: 'assign', op, target, value: this.fullExpression(value, target) };
  }

  private statement(scope: Scope, nest: number, budget: { left: number }): Stmt {
    budget.left--;
    const k = this.weighted([55, 10, nest < 2 ? 14 : 0, nest < 2 ? 8 : 0]);
    if (k === 0) return this.assignment(scope);
    if (k === 1) return { kind: 'incdec', op: this.chance(0.5) ? '++' : '--', prefix: this.chance(0.5), name: this.pick(scope.writable) };
    if (k === 2) {
      const cond = this.fullExpression(this.expr(scope, this.int(1, this.maxDepth)));
      const then = this.block(scope, nest + 1, budget, 3);
      const els = this.chance(0.5) ? this.block(scope, nest + 1, budget, 2) : null;
      return { kind: 'if', cond, then, else: els };
    }
    const v = `i${this.loops++}`;
    this.types.set(v, 'int');
    const inner: Scope = { writable: scope.writable, readable: [...scope.readable, v] };
    return { kind: 'for', var: v, bound: this.int(1, 5), body: this.block(inner, nest + 1, budget, 3) };
  }

  private block(scope: Scope, nest: number, budget: { left: number }, max: number): Stmt[] {
    const n = Math.max(1, Math.min(max, this.int(1, max), budget.left));
    const out: Stmt[] = [];
    for (let i = 0; i < n; i++) out.push(this.statement(scope, nest, budget));
    return out;
  }

  program(id: string): CProgram {
    const globals: Decl[] = [];
    for (let i = 0, n = this.int(1, 5); i < n; i++) {
      const type = this.randomType();
      let init: Expr | null = null;
      if (this.chance(0.6)) {
        const lit = this.literal(this.literalMagnitude());
        init = this.chance(0.3) && lit.value !== 0n ? { kind: 'unary', op: '-', arg: lit } : lit;
      }
      globals.push({ name: `g${i}`, type, init });
      this.types.set(`g${i}`, type);
    }
    const params: { name: string; type: IntType }[] = [];
    for (let i = 0, n = this.int(1, 4); i < n; i++) {
      params.push({ name: `a${i}`, type: this.randomType() });
      this.types.set(`a${i}`, params[i]!.type);
    }
    const locals: Decl[] = [];
    const visible = [...globals.map((g) => g.name), ...params.map((q) => q.name)];
    for (let i = 0, n = this.int(1, 4); i < n; i++) {
      const type = this.randomType();
      const scope: Scope = { writable: visible, readable: visible };
      const init = this.fullExpression(this.expr(scope, this.int(0, 2)));
      locals.push({ name: `l${i}`, type, init });
      this.types.set(`l${i}`, type);
      visible.push(`l${i}`);
    }
    const scope: Scope = { writable: [...visible], readable: [...visible] };
    const min = this.options.minStatements ?? 5;
    const max = this.options.maxStatements ?? 25;
    const budget = { left: this.int(min, max) };
    const body: Stmt[] = [];
    while (budget.left > 0) body.push(this.statement(scope, 0, budget));
    for (const v of [...params.map((q) => q.name), ...locals.map((l) => l.name)]) {
      const r = `r_${v}`;
      const type = this.types.get(v)!;
      globals.push({ name: r, type, init: null });
      this.types.set(r, type);
      body.push({ kind: 'assign', op: '=', target: r, value: { kind: 'var', name: v } });
    }
    const inputs = new Map<string, bigint>();
    for (const q of params) inputs.set(q.name, interestingValue(this.rand, q.type, this.dm));
    return { id, dataModel: this.dm, globals, params, locals, body, inputs, types: new Map(this.types) };
  }
}
