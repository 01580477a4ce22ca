import test from 'ava';
import fc from 'fast-check';
import { wrapText } from './wrap.js';

test('wrapping breaks an expression between operands and indents the continuation', (t) => {
  t.deepEqual(wrapText('x <= 0', 20), ['x <= 0']);
  t.deepEqual(wrapText('i >= 0 && n - i >= 0 && j <= 2 * i + 7', 20), ['i >= 0 && n - i >= 0', '  && j <= 2 * i + 7']);
  // A word wider than the pane is broken hard; nothing is lost.
  t.deepEqual(wrapText('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
});

test('wrapped rows fit the width and keep every non-space character in order', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '&', '(', ')', '-', '1'), maxLength: 200 }), fc.integer({ min: 1, max: 60 }), (text, width) => {
      const rows = wrapText(text, width);
      if (rows.some((r) => r.length > width)) return false;
      return rows.join('').replace(/ /g, '') === text.replace(/ /g, '');
    }),
  );
  t.pass();
});
