// Every rejection path: constructs outside the subset give `unsupported:` and syntax/semantic mistakes
// give `error:`, each with the exact line:column, as an InputError (never another exception).
import test from 'ava';
import { InputError } from '../diagnostics.js';
import { parseProgram } from './index.js';

/** The diagnostic for `source`, which must be rejected with an InputError. */
function diagnostic(source: string): string {
  try {
    parseProgram(source, 'bad.c');
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error('accepted');
}

const main = (body: string) => `int main() {\n${body}\n}`;

const UNSUPPORTED: Array<[string, string, string]> = [
  ['pointer variable', main('  int *p;'), "bad.c:2:8: unsupported: pointer type 'int *'"],
  ['address-of', main('  int x = 0;\n  int y = &x;'), "bad.c:3:11: unsupported: address-of operator '&' (pointers)"],
  ['dereference', main('  int x = 0;\n  x = *x;'), "bad.c:3:7: unsupported: pointer dereference '*'"],
  ['array', main('  int a[10];'), "bad.c:2:7: unsupported: array type 'int []'"],
  ['array subscript', 'int a[3];\n' + main('  int x = a[1];'), 'bad.c:3:12: unsupported: array subscript'],
  ['global array used', 'int a[3];\n' + main('  int x = a;'), "bad.c:3:11: unsupported: global 'a' of array type 'int []'"],
  ['struct local', 'struct s { int f; };\n' + main('  struct s v;'), "bad.c:3:3: unsupported: struct type 'struct s'"],
  ['member access', main('  int x = 0;\n  x = x.f;'), "bad.c:3:8: unsupported: '.' member access (structs and unions)"],
  ['enum constant', 'enum color { RED, GREEN = 2 };\n' + main('  int x = GREEN;'), "bad.c:3:11: unsupported: enum constant 'GREEN'"],
  ['double', main('  double d;'), "bad.c:2:3: unsupported: floating-point type 'double'"],
  ['float constant', main('  int x = 1.5;'), "bad.c:2:11: unsupported: floating-point constant '1.5'"],
  ['string literal', main('  int x = "s";'), 'bad.c:2:11: unsupported: string literal'],
  ['bit and', main('  int x = 1, y = 2;\n  x = x & y;'), "bad.c:3:9: unsupported: bit operation '&'"],
  ['bit or', main('  int x = 1;\n  x = x | 4;'), "bad.c:3:9: unsupported: bit operation '|'"],
  ['bit xor', main('  int x = 1;\n  x = x ^ 4;'), "bad.c:3:9: unsupported: bit operation '^'"],
  ['shift by a variable', main('  int x = 1, y = 2;\n  x = x << y;'), "bad.c:3:9: unsupported: shift by a non-constant amount '<<'"],
  ['shift count too large', main('  int x = 1;\n  if (x >> 32) x = 0;'), "bad.c:3:9: unsupported: shift by 32, outside 0..31 for type 'int' (undefined behaviour)"],
  ['negative shift count', main('  unsigned char c = 1;\n  c <<= -1;'), "bad.c:3:5: unsupported: shift by -1, outside 0..31 for type 'int' (undefined behaviour)"],
  ['compound bit assignment', main('  int x = 1;\n  x &= 3;'), "bad.c:3:5: unsupported: bit operation '&='"],
  ['non-linear product', main('  int x = 1, y = 2;\n  x = x * y;'), 'bad.c:3:9: unsupported: product of two non-constant expressions (non-linear arithmetic)'],
  ['non-linear compound product', main('  int x = 1, y = 2;\n  x *= y;'), 'bad.c:3:5: unsupported: product of two non-constant expressions (non-linear arithmetic)'],
  ['division by a variable', main('  int x = 1, y = 2;\n  x = x / y;'), 'bad.c:3:9: unsupported: division by a non-constant expression'],
  ['modulo by a variable', main('  int x = 1, y = 2;\n  if (x % y == 0) x = 0;'), 'bad.c:3:9: unsupported: modulo by a non-constant expression'],
  ['division by zero', main('  int x = 1;\n  x = x / (2 - 2);'), 'bad.c:3:9: unsupported: division by zero'],
  ['modulo by zero', main('  int x = 1;\n  x %= 0;'), 'bad.c:3:5: unsupported: modulo by zero'],
  ['goto', main('  goto out;\n  out: ;'), "bad.c:2:3: unsupported: 'goto'"],
  ['switch', main('  int x = 1;\n  switch (x) { case 1: break; }'), "bad.c:3:3: unsupported: 'switch' statement (rewrite it as if/else)"],
  ['function pointer variable', 'int f(int a) { return a; }\n' + main('  int (*fp)(int);'), "bad.c:3:9: unsupported: function pointer type 'int (int) *'"],
  ['function as a value', 'int f(int a) { return a; }\n' + main('  int x = f;'), "bad.c:3:11: unsupported: function 'f' used as a value (function pointers)"],
  ['call of an undeclared function', main('  foo(1);'), "bad.c:2:3: unsupported: call to undefined function 'foo' (not declared)"],
  ['call of a declared, undefined function', 'int bar(int);\n' + main('  int x = bar(1);'), "bad.c:3:11: unsupported: call to undefined function 'bar' (declared but not defined)"],
  ['variadic function', 'int f(int a, ...) { return a; }\n' + main(''), "bad.c:1:5: unsupported: variadic function 'f'"],
  ['float nondet', main('  int x = __VERIFIER_nondet_float();'), 'bad.c:2:11: unsupported: non-integer nondet function __VERIFIER_nondet_float()'],
  ['sizeof', main('  int x = sizeof(int);'), "bad.c:2:11: unsupported: 'sizeof'"],
  ['static local', main('  static int n = 0;'), "bad.c:2:3: unsupported: static local variable 'n' (its value would persist across calls)"],
  ['statement expression', main('  int x = ({ 1; });'), 'bad.c:2:11: unsupported: statement expression'],
  ['initializer list', main('  int x = { 1 };'), 'bad.c:2:11: unsupported: initializer list'],
  ['using argv', 'int main(int argc, char **argv) { return argv; }', "bad.c:1:42: unsupported: pointer parameter 'argv' of main"],
];

for (const [what, source, expected] of UNSUPPORTED) {
  test(`unsupported: ${what}`, (t) => {
    t.is(diagnostic(source), expected);
  });
}

const ERRORS: Array<[string, string, string]> = [
  ['missing semicolon', main('  int x = 1;\n  x = 2\n'), "bad.c:5:1: error: expected ';' after expression, found '}'"],
  ['missing semicolon after declaration', main('  int x = 1\n  x = 2;'), "bad.c:3:3: error: expected ';' after declaration, found 'x'"],
  ['missing closing parenthesis', main('  int x = 1;\n  if (x > 0 x = 2;'), "bad.c:3:13: error: expected ')' after 'if' condition, found 'x'"],
  ['missing expression', main('  int x = ;'), "bad.c:2:11: error: expected expression, found ';'"],
  ['unexpected character', main('  int x = 1 @ 2;'), "bad.c:2:13: error: unexpected character '@'"],
  ['unterminated comment', main('  /* never closed'), 'bad.c:2:3: error: unterminated comment'],
  ['unterminated block', 'int main() {\n  int x = 1;\n', "bad.c:3:1: error: expected '}' at end of block, found end of file"],
  ['else without if', main('  else x = 1;'), "bad.c:2:3: error: 'else' without a previous 'if'"],
  ['undeclared variable', main('  y = 1;'), "bad.c:2:3: error: 'y' undeclared"],
  ['redefinition of a local', main('  int x = 1;\n  int x = 2;'), "bad.c:3:7: error: redefinition of 'x'"],
  ['local redefines a parameter', 'int f(int a) { int a = 1; return a; }', "bad.c:1:20: error: redefinition of 'a'"],
  ['redefinition of a function', 'int f() { return 0; }\nint f() { return 1; }', "bad.c:2:5: error: redefinition of function 'f'"],
  ['redefinition of a global', 'int g = 1;\nint g = 2;\n' + main(''), "bad.c:2:5: error: redefinition of 'g'"],
  ['too many arguments', 'int f(int a) { return a; }\n' + main('  f(1, 2);'), "bad.c:3:3: error: too many arguments to function 'f' (expected 1, got 2)"],
  ['too few arguments', 'int f(int a, int b) { return a; }\n' + main('  f(1);'), "bad.c:3:3: error: too few arguments to function 'f' (expected 2, got 1)"],
  ['assert arity', main('  assert(1, 2);'), "bad.c:2:3: error: too many arguments to function 'assert' (expected 1, got 2)"],
  ['break outside a loop', main('  break;'), "bad.c:2:3: error: 'break' statement not in a loop"],
  ['continue outside a loop', main('  continue;'), "bad.c:2:3: error: 'continue' statement not in a loop"],
  ['return value in a void function', 'void f() { return 1; }', "bad.c:1:19: error: 'return' with a value, in function 'f' returning void"],
  ['void value used', 'void f() { }\n' + main('  int x = f();'), 'bad.c:3:11: error: void value not ignored as it ought to be'],
  ['non-constant global initialiser', 'int a = 1;\nint b = a + 1;\n' + main(''), 'bad.c:2:9: error: initializer element is not constant'],
  ['assignment to a non-lvalue', main('  int x = 1;\n  (x + 1) = 2;'), 'bad.c:3:4: error: lvalue required as left operand of assignment'],
  ['void variable', main('  void v;'), "bad.c:2:3: error: variable 'v' declared void"],
  ['K&R definition', 'int f(a) int a; { return a; }', 'bad.c:1:7: error: old-style (K&R) parameter lists are not accepted: give each parameter a type'],
  ['no function', 'int x;', 'bad.c:1:1: error: no function definition in the file'],
  ['unknown type name', main('  uint32_t x = 0;'), "bad.c:2:3: error: unknown type name 'uint32_t'"],
  ['unknown type name in a declaration list', main('  u8 a, b;'), "bad.c:2:3: error: unknown type name 'u8'"],
  ['constant too large for every type', main('  unsigned long long x = 18446744073709551616u;'), "bad.c:2:26: error: integer constant '18446744073709551616u' is too large for its type"],
  ['decimal constant too large for every type', main('  long long x = 340282366920938463463374607431768211456;'), "bad.c:2:17: error: integer constant '340282366920938463463374607431768211456' is too large for its type"],
  ['invalid octal', main('  int x = 09;'), "bad.c:2:11: error: invalid digit in octal constant '09'"],
  ['unterminated string', main('  int x = "abc;\n'), 'bad.c:2:11: error: missing terminating " character'],
  ['called object is a variable', main('  int x = 1;\n  x(2);'), "bad.c:3:3: error: called object 'x' is not a function"],
];

for (const [what, source, expected] of ERRORS) {
  test(`error: ${what}`, (t) => {
    t.is(diagnostic(source), expected);
  });
}

test('errors in unreachable code are still reported', (t) => {
  t.is(diagnostic(main('  return 0;\n  int *p;')), "bad.c:3:8: unsupported: pointer type 'int *'");
});

test('prototypes, typedefs and externs of unsupported types are fine while unused', (t) => {
  t.notThrows(() =>
    parseProgram(
      `typedef unsigned long size_t; extern unsigned int counter; struct node { struct node *next; };
       extern char *strcpy(char *, const char *); unsigned int __VERIFIER_nondet_uint(void); double sqrt(double);
       int main() { return 0; }`,
      'ok.c',
    ),
  );
});
