// C's integer semantics end to end, on the examples of issue 18 and on the rules they rest on: the
// type of each constant, promotions and the usual arithmetic conversions, wrap-around of unsigned
// arithmetic and of conversions, the data models, and signed overflow as undefined behaviour (a
// premise of reachability that concrete runs check, or the property itself). Each expected value is
// what gcc 12 computes on x86-64 (scripts/gcc-differential.ts compares thousands of random programs).
import test from 'ava';
import { parseProgram, type FrontendOptions } from './index.js';
import { runProgram } from '../interpreter/index.js';
import { verify } from '../index.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';

test.after.always(() => shutdownZ3());

/** main's return value (or the outcome kind when it does not return). */
function result(source: string, options: FrontendOptions = {}, inputs: Record<string, bigint> = {}): bigint | string {
  const program = parseProgram(source, 'c.c', options);
  const r = runProgram(program, { inputs: new Map(Object.entries(inputs)), nondetDefault: null });
  return r.outcome.kind === 'exit' ? r.outcome.returnValue! : r.outcome.kind;
}

const main = (body: string) => `int main() { ${body} }`;

test('issue 18 examples: what gcc computes', (t) => {
  t.is(result(main("char c = 'a'; c += 100; return c;")), -59n);
  t.is(result(main('char c = 200; return c;')), -56n);
  t.is(result(main('short s = 32767; s++; return s;')), -32768n);
  t.is(result(main('char c = 127; c++; return c;')), -128n);
  t.is(result(main('int x = 4294967296; return x;')), 0n);
  t.is(result('int main() { long long y = 3000000000LL; int x = y; return x; }'), -1294967296n);
});

test('issue 18 examples: verify gives gcc\'s answer', async (t) => {
  const verdict = async (body: string, options: FrontendOptions = {}) =>
    (await verify(Problem.of(parseProgram(main(body + ' return 0;'), 'c.c', options)), resolveSettings({ timeoutMs: 60_000 }))).verdict;
  t.is(await verdict("char c = 'a'; c += 100; __VERIFIER_assert(c > 0);"), 'unsafe');
  t.is(await verdict('char c = 200; __VERIFIER_assert(c == 200);'), 'unsafe');
  t.is(await verdict('short s = 32767; s++; __VERIFIER_assert(s == 32768);'), 'unsafe');
  t.is(await verdict('char c = 127; c++; __VERIFIER_assert(c < 0);'), 'safe');
  t.is(await verdict('int x = 4294967296; __VERIFIER_assert(x == 0);'), 'safe');
  t.is(await verdict('unsigned x = 0; x--; __VERIFIER_assert(x == 4294967295u);'), 'safe');
});

test('constants have C types: -1 < 1u is false; with long, the data model decides', (t) => {
  t.is(result(main('return -1 < 1u;')), 0n);
  t.is(result(main('return -1 < 1;')), 1n);
  // ILP32: long cannot hold every unsigned int, so both become unsigned long; LP64: long holds them.
  t.is(result(main('return -1L < 1u;'), { dataModel: 'ILP32' }), 0n);
  t.is(result(main('return -1L < 1u;'), { dataModel: 'LP64' }), 1n);
  // A decimal constant too big for int is long long under ILP32 (signed), a hex one unsigned int.
  t.is(result(main('return 4294967295 > -1;')), 1n);
  t.is(result(main('return 0xFFFFFFFF > -1;')), 0n);
  t.is(result(main('return 037777777777 == -1;')), 1n); // octal, unsigned int: -1 converts to it
  t.is(result(main("return '\\xff';")), -1n); // plain char is signed
});

test('unsigned arithmetic wraps; signed values convert modulo 2^N', (t) => {
  t.is(result('unsigned main() { unsigned u = 0; u--; return u; }'), 4294967295n);
  t.is(result('unsigned main() { unsigned u = 4000000000u; u = u + u; return u; }'), 3705032704n);
  t.is(result('unsigned main() { unsigned u = 7; return -u; }'), 4294967289n);
  t.is(result('unsigned main() { unsigned u = 3; return u * 3000000000u; }'), 410065408n);
  t.is(result('int main() { unsigned char c = 250; c += 10; return c; }'), 4n);
  t.is(result('int main() { unsigned short s = 0; return s - 1; }'), -1n); // promoted to int first
  t.is(result('int main() { unsigned short s = 0; s--; return s; }'), 65535n);
  t.is(result('int main() { signed char c = -128; return (unsigned char) c; }'), 128n);
  t.is(result('unsigned long long main() { int i = -1; return i; }'), 18446744073709551615n);
  t.is(result('int main() { unsigned x = 10; return x / 3 + x % 3 + (x >> 1) + (x << 30 > 0); }'), 3n + 1n + 5n + 1n);
  t.is(result('int main() { int x = -7; return (x >> 1) * 10 + ~x; }'), -4n * 10n + 6n);
  t.is(result('int main() { _Bool b = 256; return b; }'), 1n);
});

test('conversions on argument passing and return', (t) => {
  const src = `
unsigned char low(unsigned char v) { return v; }
short narrow(int v) { return v; }
int main() { return low(300) + narrow(98304); }`;
  t.is(result(src), 44n + -32768n);
});

test('a signed overflow stops the run at its line (undefined behaviour)', (t) => {
  const program = parseProgram('int main(int n) {\n  int x = n;\n  x = x * 2;\n  return x;\n}', 'c.c');
  const ok = runProgram(program, { inputs: new Map([['n', 1000n]]) });
  t.deepEqual(ok.outcome, { kind: 'exit', returnValue: 2000n });
  const over = runProgram(program, { inputs: new Map([['n', 1073741824n]]) });
  t.is(over.outcome.kind, 'overflow');
  t.is(over.outcome.kind === 'overflow' ? over.outcome.pos.line : 0, 3);
  // The absence of overflow is a premise: an analysis does not rely on it, and only concrete runs check it.
  const premises = program.procedures.get('main')!.edges.filter((e) => e.stmt.kind === 'assume' && e.stmt.premise);
  t.is(premises.length, 1);
  // Inputs outside their type's range are not runs of the C program.
  t.is(runProgram(program, { inputs: new Map([['n', 1n << 40n]]) }).outcome.kind, 'nondet-out-of-range');
});

test('narrow types never overflow in int: no check is emitted', (t) => {
  const program = parseProgram('int main(short s, char c) { return s * 2 + c + 1; }', 'c.c');
  t.false(program.procedures.get('main')!.edges.some((e) => e.stmt.kind === 'assume' && e.stmt.premise));
});

test('the no-overflow property: overflow checks are assertions, assertions only stop the run', async (t) => {
  const src = 'int main(int n) {\n  if (n < 0 || n > 1000) return 0;\n  int x = 2 * n;\n  __VERIFIER_assert(x < 0);\n  return x;\n}';
  const program = parseProgram(src, 'c.c', { property: 'no-overflow' });
  const edges = program.procedures.get('main')!.edges;
  t.true(edges.some((e) => e.stmt.kind === 'assert' && e.stmt.overflow));
  t.false(edges.some((e) => e.stmt.kind === 'assert' && !e.stmt.overflow));
  t.is((await verify(Problem.of(program), resolveSettings({ timeoutMs: 60_000 }))).verdict, 'safe');
  // The same program for reachability fails its assertion.
  t.is((await verify(Problem.of(parseProgram(src, 'c.c')), resolveSettings({ timeoutMs: 60_000 }))).verdict, 'unsafe');
  const overflowing = parseProgram('int main(int n) {\n  int x = n + 1;\n  return x;\n}', 'c.c', { property: 'no-overflow' });
  const r = await verify(Problem.of(overflowing), resolveSettings({ timeoutMs: 60_000 }));
  t.is(r.verdict, 'unsafe');
  t.is(r.counterexample?.inputs.get('n'), 2147483647n);
});

test('a global that no statement writes is read as its constant: it may divide', (t) => {
  const src = 'int SIZE = 7;\nint main(int i) { return i % (SIZE + 2); }';
  t.is(result(src, {}, { i: 20n }), 2n);
  // Written anywhere (even by another function), it stays a variable, and dividing by it is rejected.
  t.throws(() => parseProgram('int SIZE = 7;\nvoid grow() { SIZE++; }\nint main(int i) { return i % SIZE; }', 'c.c'), { message: /modulo by a non-constant expression/ });
});

test('an operation C does not evaluate (right of && or ||, the other arm of ?:) is not checked for overflow', async (t) => {
  const src = 'int zero() { return 0; }\nint one() { return 1; }\nint main(int x) {\n  if (zero() && x + 1 > 0) return 1;\n  __VERIFIER_assert(one() || x + 1 > x);\n  return x > 0 ? 2 : -x;\n}';
  t.is(result(src, {}, { x: 2147483647n }), 2n);
  t.is(result(src, {}, { x: -2147483648n }), 'overflow'); // -x is evaluated there
  const noOverflow = parseProgram(src.replace('return x > 0 ? 2 : -x;', 'return x > 0 ? 2 : 0;'), 'c.c', { property: 'no-overflow' });
  t.is((await verify(Problem.of(noOverflow), resolveSettings({ timeoutMs: 60_000 }))).verdict, 'safe');
});
