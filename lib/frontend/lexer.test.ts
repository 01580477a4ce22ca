// Tokens, positions, preprocessor lines and literals.
import test from 'ava';
import { InputError } from '../diagnostics.js';
import { tokenize } from './lexer.js';

const texts = (src: string) => tokenize(src, 'f.c').map((t) => t.text);

test('positions are 1-based line and column', (t) => {
  const tokens = tokenize('int x;\n  x = 10;', 'f.c');
  t.deepEqual(tokens.map((tk) => [tk.text, tk.pos.line, tk.pos.col]), [
    ['int', 1, 1], ['x', 1, 5], [';', 1, 6], ['x', 2, 3], ['=', 2, 5], ['10', 2, 7], [';', 2, 9], ['<end of file>', 2, 10],
  ]);
});

test('preprocessor lines and line markers are skipped, comments dropped', (t) => {
  const src = '#include <stdio.h>\n# 12 "file.c"\n  #define LONG \\\n    continued\nint /* a\nb */ x; // rest\n#pragma once\n';
  t.deepEqual(texts(src), ['int', 'x', ';', '<end of file>']);
  const x = tokenize(src, 'f.c')[1]!;
  t.deepEqual([x.pos.line, x.pos.col], [6, 6], 'lines keep counting through skipped text');
});

test('a # that is not at the start of a line is a punctuator', (t) => {
  t.deepEqual(texts('x # y'), ['x', '#', 'y', '<end of file>']);
});

test('longest-match punctuators', (t) => {
  t.deepEqual(texts('a<<=b>>c->d...e++--f&&g||h!=i'), ['a', '<<=', 'b', '>>', 'c', '->', 'd', '...', 'e', '++', '--', 'f', '&&', 'g', '||', 'h', '!=', 'i', '<end of file>']);
});

test('integer constants: decimal, hex, octal, suffixes', (t) => {
  const values = tokenize('10 0x1F 017 0 42L 7ll 3u 5UL', 'f.c').filter((tk) => tk.kind === 'int');
  t.deepEqual(values.map((tk) => tk.value), [10n, 31n, 15n, 0n, 42n, 7n, 3n, 5n]);
  t.deepEqual(values.map((tk) => tk.suffix?.unsigned), [false, false, false, false, false, false, true, true]);
  t.deepEqual(values.map((tk) => tk.suffix?.longs), [0, 0, 0, 0, 1, 2, 0, 1]);
  t.deepEqual(values.map((tk) => tk.decimal), [true, false, false, true, true, true, true, true]);
  t.is(tokenize('99999999999999999999999', 'f.c')[0]!.value, 99999999999999999999999n, 'exact, no float rounding');
});

test('floating constants are recognised (to be rejected later), not misread as integers', (t) => {
  t.deepEqual(tokenize('1.5 .5 1e10 2.f 0x1p3', 'f.c').filter((tk) => tk.kind === 'float').map((tk) => tk.text), ['1.5', '.5', '1e10', '2.f', '0x1p3']);
});

test('character constants have their (signed char) value', (t) => {
  const values = tokenize("'a' '\\n' '\\0' '\\x41' '\\'' '\\101'", 'f.c').filter((tk) => tk.kind === 'char');
  t.deepEqual(values.map((tk) => tk.value), [97n, 10n, 0n, 65n, 39n, 65n]);
});

test('strings are single tokens, escapes included', (t) => {
  t.deepEqual(texts('f("a \\" b", "c")'), ['f', '(', '"a \\" b"', ',', '"c"', ')', '<end of file>']);
});

test('lexical errors are positioned InputErrors', (t) => {
  const cases: Array<[string, string]> = [
    ['int x = 1 @ 2;', 'f.c:1:11: error: unexpected character \'@\''],
    ['x = 0x;', "f.c:1:5: error: invalid numeric constant '0x'"],
    ['x = 12abc;', "f.c:1:5: error: invalid numeric constant '12abc'"],
    ['x = 1uu;', "f.c:1:5: error: invalid suffix 'uu' on integer constant"],
    ["c = '';", 'f.c:1:5: error: empty character constant'],
    ['s = "abc', 'f.c:1:5: error: missing terminating " character'],
    ['/* open', 'f.c:1:1: error: unterminated comment'],
  ];
  for (const [src, message] of cases) {
    const e = t.throws(() => tokenize(src, 'f.c'), { instanceOf: InputError });
    t.is(e?.message, message);
  }
});
