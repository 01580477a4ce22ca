// Random whole programs (SV-COMP style: `main` reads its inputs with __VERIFIER_nondet_*()) whose one
// assertion fails only on one specific input or a narrow set of them (issue 44), for the needle mode of
// the command fuzzer (scripts/command-fuzz.ts --programs needles). Four families:
//
// - equality with a constant: `if (L < x && x < H) __VERIFIER_assert(a * x + b != K)`, K hit by one x
//   in the range; or two inputs, `x - y != K` (a diagonal of a small box) or `x - y != K || x + y != M`
//   (one point of it);
// - a boundary value: `unsigned char d = c + K; __VERIFIER_assert(d != M)` and the like over unsigned
//   char, unsigned short, signed char and unsigned int (wrap-around, `+` or `*` by an odd constant, one
//   c each), or a limit of the type (`x != -2147483647 - 1`, `c + 1 <= 255`, …);
// - a deep iteration: `while (x < T) x = x + n; __VERIFIER_assert(x != V)` with V reached by exactly
//   one n (after tens to hundreds of iterations), or `for (i = 0; i < n; i++) s += k;` with
//   `__VERIFIER_assert(s != V)`;
// - a deep recursion: `f(n) = f(n - 1) + k` (or an accumulating tail call) with
//   `__VERIFIER_assert(f(n) != V)`, depth up to 1000.
//
// No signed operation overflows on any input (undefined behaviour would end the runs instead). Each
// program comes with what the generator knows from its own model of the C semantics: every failing
// input (as the nondet stream main reads, one value per read) and passing inputs around them (the
// neighbours of each failing input, the edges of the guarded range and of the type, random ones), so
// the fuzzer knows the program is buggy and has runs to check failing conditions on. The test
// (command-fuzz.test.ts) holds the model to the interpreter. Deterministic for a given generator
// (lib/random.ts).

import { runText } from '../../lib/guard/runs.js';
import type { Box, Disagreement } from './commands.js';

export type NeedleFamily = 'equality' | 'boundary' | 'iteration' | 'recursion';
export const NEEDLE_FAMILIES: readonly NeedleFamily[] = ['equality', 'boundary', 'iteration', 'recursion'];

/** One `__VERIFIER_nondet_*()` read of main, in the order they run (cex calls them nondet_1, …). */
export interface NeedleInput {
  readonly name: string;
  /** The C type read (and the nondet function's suffix). */
  readonly type: string;
  readonly lo: bigint;
  readonly hi: bigint;
}

export interface Needle {
  readonly source: string;
  readonly family: NeedleFamily;
  /** The shape within the family: 'linear', 'diagonal', 'point', 'wrap-add', 'wrap-mul', 'limit',
   * 'step', 'counter', 'recursion', 'tail'. */
  readonly shape: string;
  readonly inputs: readonly NeedleInput[];
  /** Every input on which the assertion fails, each as the stream of values main reads. */
  readonly failing: readonly (readonly bigint[])[];
  /** Inputs on which no assertion fails (the run returns or an assumption blocks it). */
  readonly passing: readonly (readonly bigint[])[];
}

const INT: NeedleInput = { name: '', type: 'int', lo: -(2n ** 31n), hi: 2n ** 31n - 1n };
const TYPES = {
  uchar: { c: 'unsigned char', bits: 8, signed: false },
  ushort: { c: 'unsigned short', bits: 16, signed: false },
  schar: { c: 'signed char', bits: 8, signed: true },
  uint: { c: 'unsigned int', bits: 32, signed: false },
  short: { c: 'short', bits: 16, signed: true },
  int: { c: 'int', bits: 32, signed: true },
} as const;
type TypeName = keyof typeof TYPES;

function range(t: TypeName): { lo: bigint; hi: bigint } {
  const { bits, signed } = TYPES[t];
  const size = 1n << BigInt(bits);
  return signed ? { lo: -(size / 2n), hi: size / 2n - 1n } : { lo: 0n, hi: size - 1n };
}

/** A value converted to the type (modulo 2^N, signed types as gcc does). */
function wrap(t: TypeName, v: bigint): bigint {
  const { lo } = range(t);
  const size = 1n << BigInt(TYPES[t].bits);
  return ((((v - lo) % size) + size) % size) + lo;
}

/** C text of a constant of the type (a `u` suffix on unsigned int ones; INT_MIN as an expression). */
function literal(t: TypeName, v: bigint): string {
  if (t === 'int' && v === -(2n ** 31n)) return '-2147483647 - 1';
  if (t === 'uint') return `${v}u`;
  return `${v}`;
}

function signedText(k: bigint): string {
  return k >= 0n ? `+ ${k}` : `- ${-k}`;
}

/** The `__VERIFIER_nondet_<suffix>` of each C type read. */
const SUFFIX: Readonly<Record<string, string>> = { int: 'int', 'unsigned char': 'uchar', 'unsigned short': 'ushort', 'signed char': 'schar', 'unsigned int': 'uint', short: 'short' };

function header(inputTypes: readonly string[], assume: boolean): string[] {
  const lines = [...new Set(inputTypes)].map((t) => `extern ${t} __VERIFIER_nondet_${SUFFIX[t]}(void);`);
  if (assume) lines.push('extern void __VERIFIER_assume(int);');
  lines.push('extern void __VERIFIER_assert(int);');
  return lines;
}

function nondetCall(type: string): string {
  return `__VERIFIER_nondet_${SUFFIX[type]}()`;
}

export class NeedleGenerator {
  constructor(private readonly rand: () => number) {}

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.rand() * (hi - lo + 1));
  }

  private big(lo: bigint, hi: bigint): bigint {
    // Two draws: 2^32-wide ranges need more than the 32 bits of one.
    const span = hi - lo + 1n;
    const r = (BigInt(Math.floor(this.rand() * 2 ** 26)) << 26n) | BigInt(Math.floor(this.rand() * 2 ** 26));
    return lo + (r % span);
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[this.int(0, xs.length - 1)]!;
  }

  private chance(p: number): boolean {
    return this.rand() < p;
  }

  /** A program of one of `families` (default all, equally often). */
  program(families: readonly NeedleFamily[] = NEEDLE_FAMILIES): Needle {
    const family = this.pick(families);
    switch (family) {
      case 'equality': return this.chance(0.6) ? this.linear() : this.difference();
      case 'boundary': return this.chance(0.7) ? this.wrapAround() : this.limit();
      case 'iteration': return this.chance(0.5) ? this.stepLoop() : this.counterLoop();
      case 'recursion': return this.recursion();
    }
  }

  /** The guard of a range L < x < H (as an `if` or an assumption). */
  private guardText(x: string, lo: bigint, hi: bigint): string {
    return this.chance(0.5) ? `${x} > ${lo - 1n} && ${x} < ${hi + 1n}` : `${x} >= ${lo} && ${x} <= ${hi}`;
  }

  /** `if (guard) { body }` or `__VERIFIER_assume(guard); body`, indented in main. */
  private guarded(guard: string, body: readonly string[]): { lines: string[]; assume: boolean } {
    if (this.chance(0.5)) return { lines: [`  if (${guard}) {`, ...body.map((l) => `    ${l}`), '  }'], assume: false };
    return { lines: [`  __VERIFIER_assume(${guard});`, ...body.map((l) => `  ${l}`)], assume: true };
  }

  private main(types: readonly string[], assume: boolean, body: readonly string[], before: readonly string[] = []): string {
    return [...header(types, assume), ...before, 'int main() {', ...body, '  return 0;', '}', ''].join('\n');
  }

  /** `a * x + b != K` with one x in lo..hi hitting K. */
  private linear(): Needle {
    const width = BigInt(this.pick([this.int(2, 30), this.int(30, 300), this.int(300, 3000)]));
    const lo = BigInt(this.int(-1000, 1000));
    const hi = lo + width;
    const roll = this.int(0, 9);
    const x0 = roll === 0 ? lo : roll === 1 ? hi : this.big(lo, hi);
    const a = BigInt(this.pick([1, 1, 2, 3, 5, 7, 9, -1, -2, -3, -7]));
    const b = a === 1n && this.chance(0.3) ? 0n : BigInt(this.int(-200, 200));
    const k = a * x0 + b;
    const term = a === 1n ? 'x' : a === -1n ? '-x' : `${a} * x`;
    const expr = b === 0n ? term : `${term} ${signedText(b)}`;
    const body = this.chance(0.3) ? [`int y = ${expr};`, `__VERIFIER_assert(y != ${k});`] : [`__VERIFIER_assert(${expr} != ${k});`];
    const g = this.guarded(this.guardText('x', lo, hi), body);
    const source = this.main(['int'], g.assume, ['  int x = __VERIFIER_nondet_int();', ...g.lines]);
    const fails = (x: bigint): boolean => x >= lo && x <= hi && a * x + b === k;
    const candidates = [x0 - 2n, x0 - 1n, x0 + 1n, x0 + 2n, lo - 1n, lo, lo + 1n, hi - 1n, hi, hi + 1n, 0n, INT.lo, INT.hi, ...Array.from({ length: 8 }, () => this.big(lo, hi)), ...Array.from({ length: 3 }, () => this.big(INT.lo, INT.hi))];
    return { source, family: 'equality', shape: 'linear', inputs: [{ ...INT, name: 'x' }], failing: [[x0]], passing: distinct(candidates.filter((x) => !fails(x)).map((x) => [x])) };
  }

  /** Two inputs in small ranges: `x - y != K` (a diagonal fails) or also `x + y != M` (one point). */
  private difference(): Needle {
    const [lx, ly] = [BigInt(this.int(-500, 500)), BigInt(this.int(-500, 500))];
    const [hx, hy] = [lx + BigInt(this.int(3, 60)), ly + BigInt(this.int(3, 60))];
    const [x0, y0] = [this.big(lx, hx), this.big(ly, hy)];
    const k = x0 - y0;
    const m = x0 + y0;
    const point = this.chance(0.5);
    const assertion = point ? `x - y != ${k} || x + y != ${m}` : this.chance(0.5) ? `x - y != ${k}` : `x != y ${signedText(k)}`;
    const g = this.guarded(`${this.guardText('x', lx, hx)} && ${this.guardText('y', ly, hy)}`, [`__VERIFIER_assert(${assertion});`]);
    const source = this.main(['int'], g.assume, ['  int x = __VERIFIER_nondet_int();', '  int y = __VERIFIER_nondet_int();', ...g.lines]);
    const fails = (x: bigint, y: bigint): boolean => x >= lx && x <= hx && y >= ly && y <= hy && x - y === k && (!point || x + y === m);
    const failing: bigint[][] = [];
    for (let x = lx; x <= hx; x++) if (fails(x, x - k)) failing.push([x, x - k]);
    const around = failing.flatMap(([x, y]) => [[x! + 1n, y!], [x! - 1n, y!], [x!, y! + 1n], [x!, y! - 1n], [x! + 1n, y! + 1n]]);
    const random = Array.from({ length: 12 }, () => [this.big(lx - 2n, hx + 2n), this.big(ly - 2n, hy + 2n)]);
    const corners = [[lx, ly], [lx, hy], [hx, ly], [hx, hy], [lx - 1n, y0], [x0, hy + 1n], [0n, 0n]];
    const passing = distinct([...around, ...random, ...corners]).filter(([x, y]) => !fails(x!, y!));
    return { source, family: 'equality', shape: point ? 'point' : 'diagonal', inputs: [{ ...INT, name: 'x' }, { ...INT, name: 'y' }], failing, passing };
  }

  /** `T d = c + K` (or `c * K`, K odd): the map is one-to-one on T, so one c gives d == M. */
  private wrapAround(): Needle {
    const t: TypeName = this.pick(['uchar', 'uchar', 'ushort', 'schar', 'uint']);
    const { lo, hi } = range(t);
    const size = hi - lo + 1n;
    const mul = t !== 'schar' && this.chance(0.3);
    // An odd factor, at most 255 below unsigned int: c * K is an int there, which must not overflow.
    const k = mul ? 2n * this.big(1n, t === 'uint' ? size / 2n - 1n : 127n) + 1n : this.big(1n, size - 1n);
    // Mostly a c0 whose sum wraps (c0 + K past the top of the type).
    const c0 = mul || this.chance(0.2) ? this.big(lo, hi) : this.big(hi - k + 1n > lo ? hi - k + 1n : lo, hi);
    const apply = (c: bigint): bigint => wrap(t, mul ? c * k : c + k);
    const m = apply(c0);
    const type = TYPES[t].c;
    const kText = t === 'uint' ? `${k}u` : `${k}`;
    const body = [`  ${type} c = ${nondetCall(type)};`, `  ${type} d = c ${mul ? '*' : '+'} ${kText};`, `  __VERIFIER_assert(d != ${literal(t, m)});`];
    const source = this.main([type], false, body);
    // Small types: every c checked by the model; unsigned int: the map is a bijection, so c0 alone.
    const failing: bigint[][] = [];
    if (size <= 65536n) {
      for (let c = lo; c <= hi; c++) if (apply(c) === m) failing.push([c]);
    } else failing.push([c0]);
    const candidates = [c0 - 2n, c0 - 1n, c0 + 1n, c0 + 2n, lo, lo + 1n, hi - 1n, hi, 0n, ...Array.from({ length: 10 }, () => this.big(lo, hi))];
    const passing = distinct(candidates.filter((c) => c >= lo && c <= hi && apply(c) !== m).map((c) => [c]));
    return { source, family: 'boundary', shape: mul ? 'wrap-mul' : 'wrap-add', inputs: [{ name: 'c', type, lo, hi }], failing, passing };
  }

  /** A limit of the type: the assertion fails on its least or its greatest value only. */
  private limit(): Needle {
    const t: TypeName = this.pick(['int', 'uint', 'uchar', 'schar', 'short', 'ushort']);
    const { lo, hi } = range(t);
    const type = TYPES[t].c;
    const unsignedType = !TYPES[t].signed;
    const atTop = unsignedType ? this.chance(0.8) : this.chance(0.5);
    const x0 = atTop ? hi : lo;
    let assertion: string;
    if (t === 'uint' && atTop && this.chance(0.5)) assertion = 'x + 1 != 0';
    else if (t === 'uint' && !atTop) assertion = 'x - 1 < x';
    else if (t !== 'int' && t !== 'uint' && this.chance(0.5)) assertion = atTop ? `x + 1 <= ${hi}` : `x - 1 >= ${lo}`;
    else assertion = this.pick([`x != ${literal(t, x0)}`, atTop ? `x < ${literal(t, hi)}` : `x > ${literal(t, lo)}`]);
    const source = this.main([type], false, [`  ${type} x = ${nondetCall(type)};`, `  __VERIFIER_assert(${assertion});`]);
    const other = atTop ? lo : hi;
    const candidates = [x0 + (atTop ? -1n : 1n), x0 + (atTop ? -2n : 2n), other, 0n, 1n, ...Array.from({ length: 8 }, () => this.big(lo, hi))];
    return { source, family: 'boundary', shape: 'limit', inputs: [{ name: 'x', type, lo, hi }], failing: [[x0]], passing: distinct(candidates.filter((x) => x !== x0 && x >= lo && x <= hi).map((x) => [x])) };
  }

  /** `while (x < T) x = x + n`: x ends at the least multiple of n from T on; V is that of one n only,
   * after many iterations when such a V exists. */
  private stepLoop(): Needle {
    for (;;) {
      const top = BigInt(this.int(10, 300));
      const t = BigInt(this.int(50, 2000));
      const final = (n: bigint): bigint => ((t + n - 1n) / n) * n;
      const byValue = new Map<bigint, bigint[]>();
      for (let n = 1n; n < top; n++) byValue.set(final(n), [...(byValue.get(final(n)) ?? []), n]);
      const unique = [...byValue].filter(([, ns]) => ns.length === 1).map(([v, ns]) => ({ v, n: ns[0]! }));
      const deep = unique.filter((u) => t / u.n >= 10);
      if (unique.length === 0) continue;
      const { v, n: n0 } = this.pick(deep.length > 0 && this.chance(0.8) ? deep : unique);
      const source = this.main(['int'], true, [
        '  int n = __VERIFIER_nondet_int();',
        `  __VERIFIER_assume(0 < n && n < ${top});`,
        '  int x = 0;',
        `  while (x < ${t}) {`,
        '    x = x + n;',
        '  }',
        `  __VERIFIER_assert(x != ${v});`,
      ]);
      const passing: bigint[][] = [[0n], [top], [-1n], [INT.hi]];
      for (let n = 1n; n < top; n++) if (n !== n0) passing.push([n]);
      return { source, family: 'iteration', shape: 'step', inputs: [{ ...INT, name: 'n' }], failing: [[n0]], passing };
    }
  }

  /** `for (i = 0; i < n; i += step) s += k`: s != V fails for the n making m0 iterations. */
  private counterLoop(): Needle {
    const step = BigInt(this.pick([1, 1, 1, 2, 3]));
    const m0 = BigInt(this.int(10, Math.floor(400 / Number(step))));
    const top = m0 * step + BigInt(this.int(0, 100));
    const k = BigInt(this.pick([1, 2, 3, 5, 7, -1, -2, -3]));
    const s0 = BigInt(this.int(-50, 50));
    const iterations = (n: bigint): bigint => (n <= 0n ? 0n : (n + step - 1n) / step);
    const v = s0 + k * m0;
    const inc = step === 1n ? (this.chance(0.5) ? 'i++' : 'i = i + 1') : `i += ${step}`;
    const add = this.chance(0.5) ? `s ${k >= 0n ? '+=' : '-='} ${k >= 0n ? k : -k};` : `s = s ${signedText(k)};`;
    const loop = this.chance(0.7) ? [`  for (i = 0; i < n; ${inc}) {`, `    ${add}`, '  }'] : ['  while (i < n) {', `    ${add}`, `    ${inc};`, '  }'];
    const source = this.main(['int'], true, [
      '  int n = __VERIFIER_nondet_int();',
      `  __VERIFIER_assume(0 <= n && n <= ${top});`,
      `  int s = ${s0};`,
      // Initialised: a local declared without a value reads a nondet one.
      '  int i = 0;',
      ...loop,
      `  __VERIFIER_assert(s != ${v});`,
    ]);
    const failing: bigint[][] = [];
    const passing: bigint[][] = [[-1n], [top + 1n], [INT.lo]];
    for (let n = 0n; n <= top; n++) (s0 + k * iterations(n) === v ? failing : passing).push([n]);
    return { source, family: 'iteration', shape: 'counter', inputs: [{ ...INT, name: 'n' }], failing, passing };
  }

  /** f(n) = c + k·n by n nested calls (or a tail call accumulating k); one n gives V. */
  private recursion(): Needle {
    const m0 = BigInt(this.pick([this.int(5, 100), this.int(100, 1000)]));
    const top = m0 + BigInt(this.int(0, Math.min(200, 1000 - Number(m0))));
    const k = BigInt(this.pick([1, 2, 3, 4, -1, -3]));
    const c = this.chance(0.3) ? BigInt(this.int(-20, 20)) : 0n;
    const tail = this.chance(0.35);
    const v = c + k * m0;
    const fn = tail
      ? ['int f(int n, int acc) {', '  if (n <= 0) {', '    return acc;', '  }', `  return f(n - 1, acc ${signedText(k)});`, '}']
      : ['int f(int n) {', '  if (n <= 0) {', `    return ${c};`, '  }', `  return f(n - 1) ${signedText(k)};`, '}'];
    const call = tail ? `f(n, ${c})` : 'f(n)';
    const body = this.chance(0.5) ? [`  int r = ${call};`, `  __VERIFIER_assert(r != ${v});`] : [`  __VERIFIER_assert(${call} != ${v});`];
    const source = this.main(['int'], true, ['  int n = __VERIFIER_nondet_int();', `  __VERIFIER_assume(0 <= n && n <= ${top});`, ...body], fn);
    const around = [m0 - 3n, m0 - 2n, m0 - 1n, m0 + 1n, m0 + 2n, m0 + 3n, 0n, 1n, top, top + 1n, -1n, ...Array.from({ length: 10 }, () => this.big(0n, top))];
    const passing = distinct(around.filter((n) => n !== m0).map((n) => [n]));
    return { source, family: 'recursion', shape: tail ? 'tail' : 'recursion', inputs: [{ ...INT, name: 'n' }], failing: [[m0]], passing };
  }
}

/** The generator's own claims, held to `box` (the streamBox of `failing` then `passing`, in that
 * order): every stated failing input fails an assertion, no stated passing input does. A miss is a
 * bug of the generator (the program is not what the rates count), reported as a disagreement of
 * 'generator'. */
export function needleMismatches(needle: Needle, box: Box): Disagreement[] {
  const out: Disagreement[] = [];
  box.runs.forEach((run, i) => {
    const stated = i < needle.failing.length ? 'failing' : 'passing';
    const fails = run.outcome.kind === 'assertion-failed';
    const passes = run.outcome.kind === 'exit' || run.outcome.kind === 'assume-blocked';
    if (stated === 'failing' ? !fails : !passes) out.push({ command: 'generator', kind: 'internal', message: `the ${stated} input ${runText(run.input, run.nondet)} ends with ${run.outcome.kind}` });
  });
  return out;
}

function distinct(streams: readonly (readonly bigint[])[]): bigint[][] {
  const seen = new Set<string>();
  const out: bigint[][] = [];
  for (const s of streams) {
    const key = s.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([...s]);
  }
  return out;
}
