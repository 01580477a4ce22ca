// What each construct of the C subset lowers to: IR shape (edges, locations, names) and, through a
// small test evaluator, what the lowered code computes.
import test from 'ava';
import type { Procedure, Program } from '../ir/cfg.js';
import { printProcedure, printStmt } from '../ir/print.js';
import { parseProgram } from './index.js';
import { evaluateProcedure } from './testing/evaluate.js';
import { wellFormednessProblems } from './testing/well-formed.js';

function parse(source: string): Program {
  const program = parseProgram(source, 'test.c');
  const problems = wellFormednessProblems(program);
  if (problems.length > 0) throw new Error(`ill-formed IR:\n${problems.join('\n')}`);
  return program;
}

function proc(source: string, name = 'main'): Procedure {
  const p = parse(source).procedures.get(name);
  if (!p) throw new Error(`no procedure ${name}`);
  return p;
}

const stmts = (p: Procedure) => p.edges.map((e) => printStmt(e.stmt));
/** The statements without the premise checks of signed overflow. */
const plain = (p: Procedure) => stmts(p).filter((s) => !s.startsWith('premise'));

/** Runs main (or `name`) on integer inputs and returns the final environment as plain numbers. */
function run(source: string, inputs: number[] = [], name = 'main') {
  const r = evaluateProcedure(proc(source, name), inputs.map(BigInt));
  const env = Object.fromEntries([...r.env].map(([k, v]) => [k, Number(v)]));
  return { outcome: r.outcome, returned: r.returned === null ? null : Number(r.returned), env };
}

const PV1 = 'void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }';

test('paper example PV1 lowers to the expected CFG', (t) => {
  const program = parse(PV1);
  t.is(program.entry, 'PV1');
  const p = program.procedures.get('PV1')!;
  t.deepEqual(p.params, ['y']);
  t.deepEqual(p.locals, ['x']);
  t.is(p.returnVar, null);
  t.is(
    printProcedure(p),
    [
      'procedure PV1(y) void  [line 1]',
      '  locals: x',
      '  L0 [entry] at line 1:6',
      '    L0 -> L1  [line 1]  x := -50',
      '  L1 [loop header] at line 1:32',
      '    L1 -> L2  [line 1]  assume(x < 0)',
      '    L1 -> L6  [line 1]  assume(x >= 0)',
      '  L2',
      '    L2 -> L3  [line 1]  premise no_overflow(x + y <= 2147483647 && x + y >= -2147483648)',
      '  L3',
      '    L3 -> L4  [line 1]  x := x + y',
      '  L4',
      '    L4 -> L5  [line 1]  premise no_overflow(y <= 2147483646)',
      '  L5',
      '    L5 -> L1  [line 1]  y := y + 1',
      '  L6',
      '    L6 -> L7  [line 1]  assert(y >= 1)',
      '  L7 [exit]',
    ].join('\n'),
  );
  const header = p.locations[1]!;
  t.true(header.loopHeader);
  t.is(header.label, 'loop');
  t.deepEqual(header.pos, { file: 'test.c', line: 1, col: 32 });
});

test('entry is main when defined, else the last defined function', (t) => {
  t.is(parse('int f(int a) { return a; } int main() { return f(1); } int g() { return 0; }').entry, 'main');
  t.is(parse('int f(int a) { return a; } int g() { return 0; }').entry, 'g');
});

test('a side-effect-free condition is one assume edge per branch', (t) => {
  const p = proc('int main() { int x, y, z; if ((x > 0 && y < 3) || z == 1) x = 1; else x = 2; return x; }');
  const branching = p.locations.filter((l) => p.edges.filter((e) => e.from === l.id).length > 1);
  t.is(branching.length, 1);
  const out = p.edges.filter((e) => e.from === branching[0]!.id).map((e) => printStmt(e.stmt));
  t.deepEqual(out, ['assume((x >= 1 && y <= 2) || z == 1)', 'assume((x <= 0 || y >= 3) && !(z == 1))']);
});

test('a condition with side effects is evaluated short-circuit', (t) => {
  const src = 'int main() { int x = nondet(), y = nondet(), r; if (x++ > 0 && y-- > 0) r = 1; else r = 0; return r; }';
  for (const [x, y] of [[1, 1], [1, 0], [0, 1], [0, 0]] as const) {
    const { env } = run(src, [x, y, 0]);
    t.is(env.x, x + 1);
    t.is(env.y, x > 0 ? y - 1 : y, `y is decremented only when x > 0 (x=${x}, y=${y})`);
    t.is(env.r, x > 0 && y > 0 ? 1 : 0);
  }
  const orSrc = 'int main() { int x = nondet(), n = 0; if (x == 0 || ++n > 5) x = 7; return n; }';
  t.is(run(orSrc, [0]).returned, 0);
  t.is(run(orSrc, [3]).returned, 1);
});

test('an int used as a condition means != 0', (t) => {
  const p = proc('int main() { int x = nondet(); while (x) x--; return 0; }');
  t.true(stmts(p).includes('assume(!(x == 0))'));
  t.true(stmts(p).includes('assume(x == 0)'));
});

test('division and modulo by constants truncate toward zero, as in C', (t) => {
  const src = (k: number) => `int main() { int x = nondet(); int q = x / ${k}; int r = x % ${k}; return 0; }`;
  for (const k of [2, 3, -3, 7]) {
    for (let x = -12; x <= 12; x++) {
      const { env } = run(src(k), [x]);
      const q = Math.trunc(x / k) + 0; // + 0 turns -0 into 0
      t.is(env.q, q, `${x} / ${k}`);
      t.is(env.r, x - k * q, `${x} % ${k}`);
    }
  }
  // Constant operands fold; division by 1 needs no temporary.
  t.deepEqual(stmts(proc('int main() { int x = -7 / 2, y = -7 % 2, z = nondet(); z = z / 1; return 0; }')).slice(0, 2), ['x := -3', 'y := -1']);
  t.false(stmts(proc('int main() { int z = nondet(); z = z / 1; return 0; }')).some((s) => s.startsWith('havoc __tmp')));
  const { env } = run('int main() { int x = nondet(); x /= 4; int y = nondet(); y %= 3; return 0; }', [-9, -5]);
  t.is(env.x, -2);
  t.is(env.y, -2);
});

test('products need a constant side (after folding)', (t) => {
  const p = proc('int main() { int x = nondet(); int y = 2 * 3 * x; int z = x * (2 + 1); x *= -2; return 0; }');
  t.true(stmts(p).includes('y := 6 * x'));
  t.true(stmts(p).includes('z := 3 * x'));
  t.true(stmts(p).includes('x := -2 * x'));
});

test('comparisons and logical operators used as values become 1/0 branches', (t) => {
  const src = 'int main() { int x = nondet(), y = nondet(); int a = x < y; int b = !x; int c = (x > 0) + (y > 0); int d = x && y; return 0; }';
  for (const [x, y] of [[0, 0], [1, 2], [-1, 5], [3, 0]] as const) {
    const { env } = run(src, [x, y]);
    t.is(env.a, x < y ? 1 : 0);
    t.is(env.b, x === 0 ? 1 : 0);
    t.is(env.c, (x > 0 ? 1 : 0) + (y > 0 ? 1 : 0));
    t.is(env.d, x !== 0 && y !== 0 ? 1 : 0);
  }
  const p = proc('int main() { int x = nondet(); int a = x < 3; return a; }');
  t.true(stmts(p).includes('assume(x <= 2)'));
  t.true(stmts(p).includes('a := 1'));
  t.true(stmts(p).includes('a := 0'));
});

test('the ternary operator, pure and with side effects', (t) => {
  const src = 'int main() { int x = nondet(), n = 0; int m = x > 0 ? x : -x; int k = x > 0 ? n++ : n--; int s = 1 + (x ? 10 : 20); return 0; }';
  for (const x of [-4, 0, 6]) {
    const { env } = run(src, [x]);
    t.is(env.m, Math.abs(x));
    t.is(env.k, 0);
    t.is(env.n, x > 0 ? 1 : -1);
    t.is(env.s, x !== 0 ? 11 : 21);
  }
});

test('increments, decrements and compound assignments', (t) => {
  const src = 'int main() { int x = 5; int a = x++; int b = ++x; int c = x--; int d = --x; x += 10; x -= 3; int e, f; e = f = x; return 0; }';
  const { env } = run(src, [0, 0]);
  t.deepEqual([env.a, env.b, env.c, env.d, env.x, env.e, env.f], [5, 7, 7, 5, 12, 12, 12]);
  // x++ as a statement is a single assignment, no temporary.
  t.deepEqual(plain(proc('int main() { int x = 0; x++; ++x; x--; return x; }')).slice(1, 4), ['x := x + 1', 'x := x + 1', 'x := x - 1']);
});

test('x + x++ keeps the left value before the increment', (t) => {
  t.is(run('int main() { int x = 3; int y = x + x++; return y; }').returned, 6);
  t.is(run('int main() { int x = 3; int y = x++ + x; return y; }').returned, 7);
});

test('_Bool assignment converts to 0/1', (t) => {
  const src = 'int main() { int x = nondet(); _Bool b = x; _Bool c; c = x - 3; _Bool d = 0; d += 5; return b + c + d; }';
  for (const x of [0, 3, 7]) {
    const { env } = run(src, [x, 0]);
    t.is(env.b, x !== 0 ? 1 : 0);
    t.is(env.c, x !== 3 ? 1 : 0);
    t.is(env.d, 1);
  }
  t.deepEqual(parse('_Bool g = 5; int main() { return g; }').globals, [{ name: 'g', init: 1n, type: '_Bool' }]);
});

test('casts to signed types are the identity; a cast to _Bool tests non-zero', (t) => {
  const { env } = run('int main() { int x = nondet(); long y = (long) x + (int) 2; int z = (_Bool) x; (void) x; return 0; }', [5]);
  t.is(env.y, 7);
  t.is(env.z, 1);
});

test('nondet calls become havoc with the C type range', (t) => {
  const p = proc(`
    extern int __VERIFIER_nondet_int(void); extern long __VERIFIER_nondet_long(void);
    extern short __VERIFIER_nondet_short(void); extern char __VERIFIER_nondet_char(void);
    _Bool __VERIFIER_nondet_bool();
    int main() {
      int a = __VERIFIER_nondet_int(); long b = __VERIFIER_nondet_long(); short c = __VERIFIER_nondet_short();
      char d = __VERIFIER_nondet_char(); _Bool e = __VERIFIER_nondet_bool(); int f = nondet();
      return 0;
    }`);
  // long is 32-bit under ILP32 (the default data model); below int rank the range is also assumed.
  t.deepEqual(stmts(p).slice(0, 9), [
    'havoc a in [-2147483648, 2147483647]',
    'havoc b in [-2147483648, 2147483647]',
    'havoc c in [-32768, 32767]',
    'assume(c >= -32768 && c <= 32767)',
    'havoc d in [-128, 127]',
    'assume(d >= -128 && d <= 127)',
    'havoc e in [0, 1]',
    'assume(e >= 0 && e <= 1)',
    'havoc f in [-2147483648, 2147483647]',
  ]);
  const lp64 = parseProgram('long __VERIFIER_nondet_long(void); int main() { long b = __VERIFIER_nondet_long(); return 0; }', 't.c', { dataModel: 'LP64' });
  t.is(stmts(lp64.procedures.get('main')!)[0], 'havoc b in [-9223372036854775808, 9223372036854775807]');
  // An unsigned value's range is assumed too: its wrap-arounds depend on it.
  t.deepEqual(stmts(proc('int main() { unsigned u = __VERIFIER_nondet_uint(); return 0; }')).slice(0, 2), [
    'havoc u in [0, 4294967295]',
    'assume(u >= 0 && u <= 4294967295)',
  ]);
});

test('a nondet call inside an expression goes through a temporary', (t) => {
  const p = proc('int main() { int x = __VERIFIER_nondet_int() + 1; if (__VERIFIER_nondet_int() > x) x = 0; return x; }');
  t.deepEqual(plain(p).slice(0, 3), ['havoc __tmp1 in [-2147483648, 2147483647]', 'x := __tmp1 + 1', 'havoc __tmp2 in [-2147483648, 2147483647]']);
  t.deepEqual(p.locals, ['__ret', 'x', '__tmp1', '__tmp2']);
});

test('* conditions are choice locations with the then/body edge first', (t) => {
  const p = proc('int main() { int x = 0; if (*) x = 1; else x = 2; while (*) { x++; } return x; }');
  const choices = p.locations.filter((l) => l.choice);
  t.is(choices.length, 2);
  for (const c of choices) {
    const out = p.edges.filter((e) => e.from === c.id);
    t.is(out.length, 2);
    t.true(out.every((e) => e.stmt.kind === 'skip'));
  }
  const ifChoice = p.edges.filter((e) => e.from === choices[0]!.id);
  t.is(printStmt(p.edges.find((e) => e.from === ifChoice[0]!.to)!.stmt), 'x := 1', 'smaller id = then-branch');
  const loop = choices[1]!;
  t.true(loop.loopHeader, 'while (*) header is the choice location');
  // Evaluator: 1 = then/body, 0 = else/exit.
  t.is(run('int main() { int x = 0; if (*) x = 1; else x = 2; while (*) { x++; } return x; }', [1, 1, 1, 0]).returned, 3);
  t.is(run('int main() { int x = 0; if (*) x = 1; else x = 2; while (*) { x++; } return x; }', [0, 0]).returned, 2);
  t.is(run('int main() { int x = 0; do { x++; } while (*); return x; }', [1, 1, 0]).returned, 3);
});

test('assume/assert variants, reach_error, abort and exit', (t) => {
  const p = proc(`
    int main() {
      int x = nondet();
      assume(x > 0); __VERIFIER_assume(x < 100); assume_abort_if_not(x != 5);
      assert(x >= 1); __VERIFIER_assert(x <= 99);
      if (x == 50) { reach_error(); abort(); }
      if (x == 51) exit(0);
      return 0;
    }`);
  const s = stmts(p);
  for (const expected of ['assume(x >= 1)', 'assume(x <= 99)', 'assume(!(x == 5))', 'assert(x >= 1)', 'assert(x <= 99)', 'assert(0)', 'assume(0)']) {
    t.true(s.includes(expected), expected);
  }
  t.is(s.filter((x) => x === 'assume(0)').length, 2, 'abort() and exit(0)');
  t.is(run('int main() { int x = nondet(); if (x == 50) { reach_error(); } return 0; }', [50]).outcome, 'assert-failed');
  t.is(run('int main() { int x = nondet(); assume(x > 0); return 0; }', [0]).outcome, 'blocked');
  t.is(run('int main() { int x = nondet(); assume(x > 0); return 0; }', [1]).outcome, 'exit');
});

test('assume and assert with side effects are evaluated short-circuit', (t) => {
  const src = 'int main() { int x = nondet(), n = 0; assert(x > 0 || n++ > 5); return n; }';
  t.is(run(src, [1]).outcome, 'exit');
  t.is(run(src, [0]).outcome, 'assert-failed');
  t.is(run('int main() { int x = nondet(), n = 0; assume(x > 0 && ++n > 0); return n; }', [3]).returned, 1);
  t.is(run('int main() { int x = nondet(), n = 0; assume(x > 0 && ++n > 0); return n; }', [0]).outcome, 'blocked');
});

test('the SV-COMP preamble is accepted and its helper definitions replaced by the builtins', (t) => {
  const program = parse(`# 1 "prog.c"
# 1 "<built-in>"
#include <stdio.h>
extern void abort(void);
extern void __assert_fail (const char *__assertion, const char *__file,
      unsigned int __line, const char *__function)
     __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
typedef unsigned long size_t;
typedef struct { int a; } pair;
void reach_error() { ((void) sizeof ((0) ? 1 : 0), __extension__ ({ if (0) ; else __assert_fail ("0", "assert.h", 3, __extension__ __PRETTY_FUNCTION__); })); }
void assume_abort_if_not(int cond) { if(!cond) {abort();} }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: {reach_error();abort();} } return; }
extern int __VERIFIER_nondet_int(void);
static inline int twice(const int v) { register int r = v + v; return r; }
int main() {
  int n = __VERIFIER_nondet_int();
  assume_abort_if_not(n >= 0);
  __VERIFIER_assert(twice(n) >= 0);
  return 0;
}`);
  t.deepEqual([...program.procedures.keys()], ['twice', 'main']);
  const s = stmts(program.procedures.get('main')!);
  t.true(s.includes('assume(n >= 0)'));
  t.true(s.includes('__tmp1 := twice(n)'));
  t.true(s.includes('assert(__tmp1 >= 0)'));
});

test('uninitialised locals are havocked; globals get C static initial values', (t) => {
  const program = parse('int g; int h = 3 * 4 - 1; long k = -(2); int main() { int x; _Bool b; g = x; return 0; }');
  t.deepEqual(program.globals, [
    { name: 'g', init: 0n, type: 'int' },
    { name: 'h', init: 11n, type: 'int' },
    { name: 'k', init: -2n, type: 'long' },
  ]);
  t.deepEqual(stmts(program.procedures.get('main')!).slice(0, 4), ['havoc x in [-2147483648, 2147483647]', 'havoc b in [0, 1]', 'assume(b >= 0 && b <= 1)', 'g := x']);
  // A tentative definition followed by the real one.
  t.deepEqual(parse('int g; int g = 4; int main() { return g; }').globals, [{ name: 'g', init: 4n, type: 'int' }]);
});

test('shadowing locals are renamed with a fresh suffix', (t) => {
  const program = parse(`
    int x = 1;
    int f(int y) {
      int x = y;
      { int x = 2; int y = x; { int x = 3; } }
      { int x = 4; }
      return x;
    }`);
  const f = program.procedures.get('f')!;
  t.deepEqual(f.params, ['y']);
  // A renamed local's suffix is never reused, so each shadowing declaration is told apart.
  t.deepEqual(f.locals, ['__ret', 'x_1', 'x_2', 'y_1', 'x_3', 'x_4']);
  t.deepEqual(stmts(f), ['x_1 := y', 'x_2 := 2', 'y_1 := x_2', 'x_3 := 3', 'x_4 := 4', '__ret := x_1']);
  // Without shadowing, sibling blocks keep the C name.
  t.deepEqual(proc('int main() { { int a = 1; } { int a = 2; } return 0; }').locals, ['__ret', 'a']);
});

test('a parameter with a global\'s name is renamed; generated names avoid source identifiers', (t) => {
  const program = parse('int n; int __tmp1; int f(int n) { return n + nondet(); }');
  const f = program.procedures.get('f')!;
  t.deepEqual(f.params, ['n_1']);
  t.true(f.locals.includes('__tmp2'), 'skips __tmp1, a C identifier');
  t.deepEqual(plain(f), ['havoc __tmp2 in [-2147483648, 2147483647]', '__ret := __tmp2 + n_1']);
});

test('calls: arguments are linear expressions, nested calls go through temporaries', (t) => {
  const program = parse(`
    int g;
    int f(int a, int b) { g = g + 1; return a - b; }
    void h(void) { g = 0; }
    int main() { int x = 1, y = 2, r; r = f(x + 1, f(y, 3)); h(); f(0, 0); r = g + f(1, 1); return r; }`);
  const main = program.procedures.get('main')!;
  const calls = main.edges.filter((e) => e.stmt.kind === 'call').map((e) => printStmt(e.stmt));
  t.deepEqual(calls, ['__tmp1 := f(y, 3)', 'r := f(x + 1, __tmp1)', 'h()', 'f(0, 0)', '__tmp3 := f(1, 1)']);
  // g + f(…): g is copied before the call, which may write it.
  t.true(stmts(main).includes('__tmp2 := g'));
  t.true(stmts(main).includes('r := __tmp2 + __tmp3'));
  t.is(program.procedures.get('h')!.returnVar, null);
});

test('recursion and long long parameters', (t) => {
  const program = parse(`
    long long add(long long m, long long n) { if (n == 0) return m; return add(m + 1, n - 1); }
    int main() { long long r = add(2, 3); return 0; }`);
  const add = program.procedures.get('add')!;
  t.true(stmts(add).includes('__ret := add(m + 1, n - 1)'));
});

test('return: value into __ret, bare return havocs it, main falls off with 0', (t) => {
  const f = proc('int f(int a) { if (a) return; }', 'f');
  t.deepEqual(stmts(f).filter((s) => s.includes('__ret')), ['havoc __ret in [-2147483648, 2147483647]', 'havoc __ret in [-2147483648, 2147483647]']);
  t.deepEqual(stmts(proc('int main() { int x = 1; }')), ['x := 1', '__ret := 0']);
  t.is(proc('void v() { return; }', 'v').returnVar, null);
  t.deepEqual(stmts(proc('_Bool f(int a) { return a; }', 'f')), ['assume(!(a == 0))', 'assume(a == 0)', '__ret := 1', '__ret := 0']);
});

test('loops: headers at the keyword, break and continue targets', (t) => {
  const src = `int main() {
  int s = 0;
  for (int i = 0; i < 10; i++) {
    if (i % 2 == 0) continue;
    if (i > 7) break;
    s += i;
  }
  int j = 0;
  do { j++; if (j == 3) continue; } while (j < 5);
  while (1) { if (j > 8) break; j = j + 2; }
  return s + j;
}`;
  const p = proc(src);
  const headers = p.locations.filter((l) => l.loopHeader);
  t.deepEqual(headers.map((h) => [h.pos!.line, h.pos!.col]), [[3, 3], [9, 3], [10, 3]]);
  t.is(run(src).returned, 1 + 3 + 5 + 7 + 9);
  // for: continue runs the step (i++) — otherwise the loop above would not terminate.
  t.is(run('int main() { int n = 0; for (int i = 0, k = 10; i < k; i++, k--) n++; return n; }').returned, 5);
  // do: the header is the body start.
  const d = proc('int main() { int x = 0; do { x = x + 2; } while (x < 10); return x; }');
  const header = d.locations.find((l) => l.loopHeader)!;
  t.is(printStmt(d.edges.find((e) => e.from === header.id)!.stmt), 'premise no_overflow(x <= 2147483645)');
  t.is(run('int main() { int x = 0; do { x = x + 2; } while (x < 10); return x; }').returned, 10);
});

test('break leaves only the innermost loop', (t) => {
  t.is(run('int main() { int n = 0; for (int i = 0; i < 3; i++) { while (1) { n++; break; } } return n; }').returned, 3);
});

test('labels and empty statements are ignored; dead code after return is dropped', (t) => {
  const p = proc('int main() { int x = 1; ; ERROR: x = 2; L2: ; return x; x = 5; }');
  t.deepEqual(stmts(p), ['x := 1', 'x := 2', '__ret := x']);
});

test('while (1) without break: exit kept, unreachable code removed', (t) => {
  const p = proc('int main() { int x = 0; while (1) { x++; } return x; }');
  t.false(stmts(p).includes('__ret := x'));
  t.is(p.locations[p.exit]!.label, 'exit');
});

test('useless skip chains are removed', (t) => {
  const p = proc('int main() { int x = 0; if (x > 0) { } else { } { { } } x = 1; return x; }');
  t.false(stmts(p).includes('skip'));
});

test('comma in for headers and chained assignments', (t) => {
  const { env } = run('int main() { int a, b, c; a = b = c = 7; int i, j; for (i = 0, j = 5; i < j; i++, j--) ; return 0; }', [0, 0, 0, 0, 0]);
  t.deepEqual([env.a, env.b, env.c, env.i, env.j], [7, 7, 7, 3, 2]);
});

test('main(int argc, char *argv[]) is accepted while argv is unused', (t) => {
  const p = proc('int main(int argc, char *argv[]) { return argc; }');
  t.deepEqual(p.params, ['argc']);
});

test('edges keep the source position of their statement', (t) => {
  const p = proc('int main() {\n  int x = 0;\n  x = x + 1;\n  return x;\n}');
  // The overflow premise of `x + 1` stands at the operator.
  t.deepEqual(p.edges.map((e) => [e.pos.line, e.pos.col]), [[2, 7], [3, 9], [3, 3], [4, 3]]);
});

test('expressions with too many cases fall back to branching and still compute the right value', (t) => {
  const terms = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
  const decl = terms.map((v) => `${v} = nondet()`).join(', ');
  const sum = terms.map((v) => `(${v} > 0 ? 1 : 2)`).join(' + ');
  const src = `int main() { int ${decl}; int s = ${sum}; return s; }`;
  const inputs = [1, 0, 5, -1, 2, 0, 3];
  t.is(run(src, inputs).returned, inputs.reduce((acc, x) => acc + (x > 0 ? 1 : 2), 0));
  t.is(run(`int main() { int ${decl}; if (${sum} > 9) return 1; return 0; }`, inputs).returned, 1);
});

test('for (;;) loops forever unless broken; nondet branches in dead code are dropped', (t) => {
  t.is(run('int main() { int n = 0; for (;;) { n++; if (n == 4) break; } return n; }').returned, 4);
  const p = proc('int main() { return 0; if (*) { int x = 1; } while (*) { } }');
  t.false(p.locations.some((l) => l.choice));
});
