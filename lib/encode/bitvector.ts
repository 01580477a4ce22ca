// Exact integer arithmetic on two's-complement bit-vectors (least significant bit first).
//
// Exactness without wrap-around comes from ranges: every vector carries a sound interval [lo, hi]
// containing its value under every assignment of its input bits, and every operation sizes its result
// to the narrowest signed width that holds the interval of the exact result. Arithmetic is then done
// modulo 2^W for that width W, which is exact because the true value is known to fit: bits of weight
// 2^W and above (partial products, carries) are simply never built.
//
// Sums, differences, negations, constant scalings and products all go through one multi-operand
// adder (WeightedSum): each operand is expanded into weighted bits, a bit with negative weight
// (a sign bit, or a bit scaled by a negative constant) becomes its negation plus a constant
// (−b·2^k = ¬b·2^k − 2^k), so no operand is ever sign-extended, and the columns are compressed with
// full adders (carry-save, like a Wallace tree) down to one bit each. This does the job of a balanced
// adder tree with no sign-extension gates and no partial products above the result width.

import type { CnfBuilder, Lit } from './cnf-builder.js';

/** A two's-complement signed integer: value = −bits[w−1]·2^(w−1) + Σ_{i<w−1} bits[i]·2^i. */
export interface BitVec {
  /** Least significant bit first; at least one bit. */
  readonly bits: readonly Lit[];
  /** Sound bounds on the value under every assignment of the input bits. */
  readonly lo: bigint;
  readonly hi: bigint;
}

function bitLength(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** The narrowest two's-complement width (>= 1) holding every value in [lo, hi]. */
export function signedWidth(lo: bigint, hi: bigint): number {
  if (lo > hi) throw new RangeError(`empty range [${lo}, ${hi}]`);
  const negativeNeed = lo < 0n ? bitLength(-lo - 1n) : 0;
  const positiveNeed = hi > 0n ? bitLength(hi) : 0;
  return 1 + Math.max(negativeNeed, positiveNeed);
}

/** Builds a vector, dropping high bits that its range shows to be sign copies. */
function makeVec(bits: readonly Lit[], lo: bigint, hi: bigint): BitVec {
  const w = signedWidth(lo, hi);
  if (w > bits.length) throw new RangeError(`range [${lo}, ${hi}] does not fit in ${bits.length} bits`);
  return { bits: w < bits.length ? bits.slice(0, w) : bits, lo, hi };
}

export function isConstantVec(x: BitVec): boolean {
  return x.lo === x.hi;
}

export function constantVec(b: CnfBuilder, value: bigint): BitVec {
  const w = signedWidth(value, value);
  const bits: Lit[] = [];
  for (let i = 0; i < w; i++) bits.push(((value >> BigInt(i)) & 1n) === 1n ? b.TRUE : b.FALSE);
  return { bits, lo: value, hi: value };
}

/** A fresh signed unknown of `width` bits: range [−2^(width−1), 2^(width−1) − 1]. Width 0 is the constant 0. */
export function signedVar(b: CnfBuilder, width: number): BitVec {
  checkWidth(width);
  if (width === 0) return constantVec(b, 0n);
  const bits: Lit[] = [];
  for (let i = 0; i < width; i++) bits.push(b.newVar());
  const half = 1n << BigInt(width - 1);
  return { bits, lo: -half, hi: half - 1n };
}

/** A fresh non-negative unknown of `width` bits: range [0, 2^width − 1], stored with a constant-false sign bit. */
export function unsignedVar(b: CnfBuilder, width: number): BitVec {
  checkWidth(width);
  if (width === 0) return constantVec(b, 0n);
  const bits: Lit[] = [];
  for (let i = 0; i < width; i++) bits.push(b.newVar());
  bits.push(b.FALSE);
  return { bits, lo: 0n, hi: (1n << BigInt(width)) - 1n };
}

function checkWidth(width: number): void {
  if (!Number.isInteger(width) || width < 0) throw new RangeError(`bit width must be a non-negative integer, got ${width}`);
}

export function signExtend(x: BitVec, width: number): readonly Lit[] {
  if (width <= x.bits.length) return x.bits;
  const msb = x.bits[x.bits.length - 1]!;
  return [...x.bits, ...new Array<Lit>(width - x.bits.length).fill(msb)];
}

export function decodeVec(b: CnfBuilder, x: BitVec, model: readonly boolean[]): bigint {
  let value = 0n;
  const w = x.bits.length;
  for (let i = 0; i < w; i++) {
    if (b.value(model, x.bits[i]!)) value += i === w - 1 ? -(1n << BigInt(i)) : 1n << BigInt(i);
  }
  return value;
}

/** Non-adjacent form: c = Σ d·2^k with digits d ∈ {−1, 1} and no two adjacent non-zero digits. */
function nonAdjacentForm(c: bigint): Array<readonly [shift: number, digit: 1 | -1]> {
  const digits: Array<readonly [number, 1 | -1]> = [];
  let rest = c;
  for (let k = 0; rest !== 0n; k++) {
    if ((rest & 1n) === 1n) {
      const d: 1 | -1 = (rest & 3n) === 1n ? 1 : -1;
      rest -= BigInt(d);
      digits.push([k, d]);
    }
    rest >>= 1n;
  }
  return digits;
}

function ordered(a: bigint, b: bigint): [bigint, bigint] {
  return a <= b ? [a, b] : [b, a];
}

function sameBits(x: BitVec, y: BitVec): boolean {
  return x.bits.length === y.bits.length && x.bits.every((l, i) => l === y.bits[i]);
}

function compareBits(x: BitVec, y: BitVec): number {
  if (x.bits.length !== y.bits.length) return x.bits.length - y.bits.length;
  for (let i = 0; i < x.bits.length; i++) if (x.bits[i] !== y.bits[i]) return x.bits[i]! - y.bits[i]!;
  return 0;
}

/** Interval of x·y; tighter when x and y are the same vector (a square is never negative). */
function productRange(x: BitVec, y: BitVec): [bigint, bigint] {
  if (sameBits(x, y)) {
    const a = x.lo * x.lo;
    const b = x.hi * x.hi;
    const max = a > b ? a : b;
    if (x.lo <= 0n && x.hi >= 0n) return [0n, max];
    return ordered(a, b);
  }
  const corners = [x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi];
  let lo = corners[0]!;
  let hi = corners[0]!;
  for (const c of corners) {
    if (c < lo) lo = c;
    if (c > hi) hi = c;
  }
  return [lo, hi];
}

type Operand =
  | { readonly kind: 'scaled'; readonly x: BitVec; readonly c: bigint }
  | { readonly kind: 'product'; readonly x: BitVec; readonly y: BitVec; readonly c: bigint };

/**
 * An exact integer sum Σ c·x + Σ c·x·y + constant over bit-vectors, built as one multi-operand adder.
 * Add operands, then call `toVec()` once.
 */
export class WeightedSum {
  private readonly operands: Operand[] = [];
  private constant = 0n;
  private lo = 0n;
  private hi = 0n;

  constructor(private readonly b: CnfBuilder) {}

  /** Sound bounds of the sum as built so far. */
  get range(): readonly [bigint, bigint] {
    return [this.lo, this.hi];
  }

  addConstant(c: bigint): this {
    this.constant += c;
    this.lo += c;
    this.hi += c;
    return this;
  }

  addScaled(x: BitVec, c: bigint = 1n): this {
    if (c === 0n) return this;
    if (isConstantVec(x)) return this.addConstant(x.lo * c);
    const [lo, hi] = ordered(x.lo * c, x.hi * c);
    this.lo += lo;
    this.hi += hi;
    this.operands.push({ kind: 'scaled', x, c });
    return this;
  }

  addProduct(x: BitVec, y: BitVec, c: bigint = 1n): this {
    if (c === 0n) return this;
    // A constant factor is a scaling: shifts and adds, no AND gates.
    if (isConstantVec(y)) return this.addScaled(x, y.lo * c);
    if (isConstantVec(x)) return this.addScaled(y, x.lo * c);
    // A canonical factor order makes x·y and y·x the same circuit, so structural hashing shares it.
    if (compareBits(x, y) > 0) [x, y] = [y, x];
    const [plo, phi] = productRange(x, y);
    const [lo, hi] = ordered(plo * c, phi * c);
    this.lo += lo;
    this.hi += hi;
    this.operands.push({ kind: 'product', x, y, c });
    return this;
  }

  toVec(): BitVec {
    const b = this.b;
    if (this.lo === this.hi) return constantVec(b, this.lo);
    const width = signedWidth(this.lo, this.hi);
    const columns: Lit[][] = Array.from({ length: width }, () => []);
    let constant = this.constant;

    // Adds weight·lit with weight = sign·2^col, working modulo 2^width.
    const place = (lit: Lit, col: number, sign: 1 | -1): void => {
      if (col >= width || lit === b.FALSE) return;
      if (lit === b.TRUE) {
        constant += BigInt(sign) << BigInt(col);
      } else if (sign > 0) {
        columns[col]!.push(lit);
      } else {
        columns[col]!.push(-lit);
        constant -= 1n << BigInt(col);
      }
    };
    const bitSign = (x: BitVec, i: number): 1 | -1 => (i === x.bits.length - 1 ? -1 : 1);

    for (const op of this.operands) {
      const digits = nonAdjacentForm(op.c);
      const lowestShift = digits[0]![0];
      if (op.kind === 'scaled') {
        op.x.bits.forEach((lit, i) => {
          for (const [k, d] of digits) place(lit, i + k, (bitSign(op.x, i) * d) as 1 | -1);
        });
      } else {
        op.x.bits.forEach((xi, i) => {
          op.y.bits.forEach((yj, j) => {
            // Partial products that only land above the result width are never built.
            if (i + j + lowestShift >= width) return;
            const bit = b.and(xi, yj);
            const sign = bitSign(op.x, i) * bitSign(op.y, j);
            for (const [k, d] of digits) place(bit, i + j + k, (sign * d) as 1 | -1);
          });
        });
      }
    }

    const modulus = 1n << BigInt(width);
    const constantBits = ((constant % modulus) + modulus) % modulus;
    const out: Lit[] = [];
    for (let col = 0; col < width; col++) {
      const queue = columns[col]!;
      // The constant bit goes last: paired with a single remaining bit in a half adder it costs no gate.
      if (((constantBits >> BigInt(col)) & 1n) === 1n) queue.push(b.TRUE);
      const hasNext = col + 1 < width;
      let head = 0;
      while (queue.length - head >= 2) {
        if (queue.length - head >= 3) {
          const [p, q, r] = [queue[head]!, queue[head + 1]!, queue[head + 2]!];
          head += 3;
          queue.push(b.xor3(p, q, r));
          if (hasNext) columns[col + 1]!.push(b.maj(p, q, r));
        } else {
          const [p, q] = [queue[head]!, queue[head + 1]!];
          head += 2;
          queue.push(b.xor(p, q));
          if (hasNext) columns[col + 1]!.push(b.and(p, q));
        }
      }
      out.push(queue.length > head ? queue[head]! : b.FALSE);
    }
    return makeVec(out, this.lo, this.hi);
  }
}

export function add(b: CnfBuilder, x: BitVec, y: BitVec): BitVec {
  return new WeightedSum(b).addScaled(x).addScaled(y).toVec();
}

export function sub(b: CnfBuilder, x: BitVec, y: BitVec): BitVec {
  return new WeightedSum(b).addScaled(x).addScaled(y, -1n).toVec();
}

export function neg(b: CnfBuilder, x: BitVec): BitVec {
  return new WeightedSum(b).addScaled(x, -1n).toVec();
}

/** c·x by shifts and adds of x (non-adjacent form of c); 0 and ±1 cost nothing or one negation. */
export function mulConst(b: CnfBuilder, x: BitVec, c: bigint): BitVec {
  return new WeightedSum(b).addScaled(x, c).toVec();
}

/** Exact product. A factor of range [0, 1] costs one AND gate per bit of the other factor. */
export function mul(b: CnfBuilder, x: BitVec, y: BitVec): BitVec {
  return new WeightedSum(b).addProduct(x, y).toVec();
}

/** Exact sum of any number of vectors, as one multi-operand adder. */
export function sum(b: CnfBuilder, terms: readonly BitVec[]): BitVec {
  const s = new WeightedSum(b);
  for (const t of terms) s.addScaled(t);
  return s.toVec();
}

/** Bitwise multiplexer: c ? x : y. */
export function select(b: CnfBuilder, c: Lit, x: BitVec, y: BitVec): BitVec {
  const w = Math.max(x.bits.length, y.bits.length);
  const xs = signExtend(x, w);
  const ys = signExtend(y, w);
  const bits = xs.map((xi, i) => b.ite(c, xi, ys[i]!));
  return makeVec(bits, x.lo < y.lo ? x.lo : y.lo, x.hi > y.hi ? x.hi : y.hi);
}

export function eqZero(b: CnfBuilder, x: BitVec): Lit {
  if (x.lo > 0n || x.hi < 0n) return b.FALSE;
  if (x.lo === 0n && x.hi === 0n) return b.TRUE;
  return b.andN(x.bits.map((l) => -l));
}

export function geqZero(b: CnfBuilder, x: BitVec): Lit {
  if (x.lo >= 0n) return b.TRUE;
  if (x.hi < 0n) return b.FALSE;
  return -x.bits[x.bits.length - 1]!;
}

/** x = y, bit by bit on a common width (two's complement is canonical once sign-extended). */
export function equal(b: CnfBuilder, x: BitVec, y: BitVec): Lit {
  if (x.hi < y.lo || y.hi < x.lo) return b.FALSE;
  const w = Math.max(x.bits.length, y.bits.length);
  const xs = signExtend(x, w);
  const ys = signExtend(y, w);
  return b.andN(xs.map((xi, i) => b.iff(xi, ys[i]!)));
}

export function lessThan(b: CnfBuilder, x: BitVec, y: BitVec): Lit {
  return -geqZero(b, sub(b, x, y));
}

export function lessOrEqual(b: CnfBuilder, x: BitVec, y: BitVec): Lit {
  return geqZero(b, sub(b, y, x));
}
