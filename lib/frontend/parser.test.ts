// The parser on its own: declarators, typedefs, the `*` condition, skipped builtin bodies.
import test from 'ava';
import type { CType, Declaration, FunctionDef } from './ast.js';
import { parseTranslationUnit, typeName } from './parser.js';

const decls = (src: string) => parseTranslationUnit(src, 'p.c').decls;
const declType = (src: string): CType => (decls(src)[0] as Declaration).declarators[0]!.type;

test('declarators compose pointers, arrays and functions inside out', (t) => {
  t.is(typeName(declType('int *p;')), 'int *');
  t.is(typeName(declType('int *a[3];')), 'int * []');
  t.is(typeName(declType('int (*a)[3];')), 'int [] *');
  t.is(typeName(declType('int (*fp)(int, long);')), 'int (int, long) *');
  t.is(typeName(declType('unsigned long long x;')), 'unsigned long long');
  t.is(typeName(declType('long int x;')), 'long');
  t.is(typeName(declType('signed char c;')), 'signed char');
  t.is(typeName(declType('const volatile short s;')), 'short');
  t.is(typeName(declType('struct node *next;')), 'struct node *');
});

test('prototypes: (void) is no parameters, () is unspecified, ... is variadic', (t) => {
  const f = (src: string) => declType(src) as CType & { kind: 'function' };
  t.deepEqual(f('int f(void);').params, []);
  t.is(f('int f();').params, null);
  t.true(f('int printf(const char *fmt, ...);').variadic);
  t.deepEqual(f('int g(int a, long);').params?.map((p) => p.name), ['a', null]);
});

test('typedef names are types in declarations and casts', (t) => {
  const unit = decls('typedef long my_t; my_t v; int main() { my_t w = (my_t) 3; return w; }');
  t.is(typeName((unit[1] as Declaration).declarators[0]!.type), 'long');
  const main = unit[2] as FunctionDef;
  t.is(main.body![0]!.kind, 'decl');
});

test('a variable may shadow a typedef name in an inner scope', (t) => {
  const main = decls('typedef int T; int main() { int T = 2; T = T + 1; return T; }')[1] as FunctionDef;
  t.deepEqual(main.body!.map((s) => s.kind), ['decl', 'expr', 'return']);
});

test('`*` as an if/while/do condition is a nondet condition', (t) => {
  const main = decls('int main() { if (*) ; while (*) ; do ; while (*); return 0; }')[0] as FunctionDef;
  const [i, w, d] = main.body!;
  t.is(i!.kind === 'if' && i.test.kind, 'nondet');
  t.is(w!.kind === 'while' && w.test.kind, 'nondet');
  t.is(d!.kind === 'do' && d.test.kind, 'nondet');
});

test('bodies of recognised builtins are skipped unparsed', (t) => {
  const unit = decls('void reach_error() { ((void) sizeof ((0) ? 1 : 0), __extension__ ({ if (0) ; else __assert_fail ("0", "a.h", 3, __extension__ __PRETTY_FUNCTION__); })); }');
  t.is((unit[0] as FunctionDef).body, null);
});

test('operator precedence and associativity', (t) => {
  const main = decls('int main() { return 1 - 2 - 3 * 4 < 5 && 6 || 7; }')[0] as FunctionDef;
  const ret = main.body![0]!;
  t.true(ret.kind === 'return' && ret.value?.kind === 'binary' && ret.value.op === '||');
  const chain = decls('int main() { int a, b; a = b = 1 ? 2 : 3, a; return a; }')[0] as FunctionDef;
  const stmt = chain.body![1]!;
  t.true(stmt.kind === 'expr' && stmt.expr.kind === 'comma' && stmt.expr.left.kind === 'assign' && stmt.expr.left.value.kind === 'assign');
});

test('enum constants are collected', (t) => {
  t.deepEqual([...parseTranslationUnit('enum e { A, B = 3, C = (1 + 2) };', 'p.c').enumConstants], ['A', 'B', 'C']);
});
