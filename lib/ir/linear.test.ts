import test from 'ava';
import fc from 'fast-check';
import { ceilDiv, floorDiv } from './linear.js';

test('floorDiv and ceilDiv round toward -∞ and +∞', (t) => {
  fc.assert(
    fc.property(fc.bigInt({ min: -1000n, max: 1000n }), fc.bigInt({ min: -50n, max: 50n }).filter((b) => b !== 0n), (a, b) => {
      const f = floorDiv(a, b);
      const c = ceilDiv(a, b);
      // b*f <= a < b*(f+1) for b > 0 (reversed for b < 0); likewise for the ceiling.
      t.true(b > 0n ? f * b <= a && a < (f + 1n) * b : f * b >= a && a > (f + 1n) * b);
      t.true(b > 0n ? c * b >= a && a > (c - 1n) * b : c * b <= a && a < (c - 1n) * b);
    }),
    { numRuns: 500, seed: 1 },
  );
});
