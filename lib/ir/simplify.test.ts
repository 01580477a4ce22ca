import test from 'ava';
import fc from 'fast-check';
import * as L from './linear.js';
import * as F from './formula.js';
import { normaliseInequality, simplifyInvariant } from './simplify.js';

const x = L.variable('x');
const y = L.variable('y');

test('divides by the gcd and rounds the constant down', (t) => {
  // 2x + 4y - 3 >= 0  <=>  x + 2y - 2 >= 0 over the integers
  const e = L.addConstant(L.add(L.scale(x, 2n), L.scale(y, 4n)), -3n);
  t.is(L.toC(normaliseInequality(e)), 'x + 2 * y - 2');
});

test('merges opposite inequalities into an equality and drops trivial atoms', (t) => {
  const f = F.and(F.compare(x, '>=', y), F.compare(y, '>=', x), F.geqZero(L.constant(5n)));
  t.is(F.toC(simplifyInvariant(f)), 'x == y');
});

test('drops disjuncts that are syntactically false', (t) => {
  const f = F.or(F.and(F.compare(x, '>=', L.constant(3n)), F.compare(x, '<=', L.constant(2n))), F.compare(y, '>', L.constant(0n)));
  t.is(F.toC(simplifyInvariant(f)), 'y >= 1');
});

test('simplification preserves meaning on random inputs', (t) => {
  const atom = fc.record({ a: fc.integer({ min: -4, max: 4 }), b: fc.integer({ min: -4, max: 4 }), c: fc.integer({ min: -9, max: 9 }) })
    .map(({ a, b, c }) => F.geqZero(L.fromTerms([['x', BigInt(a)], ['y', BigInt(b)]], BigInt(c))));
  const formula = fc.array(fc.array(atom, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 }).map((ds) => F.or(...ds.map((d) => F.and(...d))));
  fc.assert(
    fc.property(formula, fc.integer({ min: -12, max: 12 }), fc.integer({ min: -12, max: 12 }), (f, vx, vy) => {
      const env = (v: string) => (v === 'x' ? BigInt(vx) : BigInt(vy));
      return F.evaluate(f, env) === F.evaluate(simplifyInvariant(f), env);
    }),
    { numRuns: 2000 },
  );
  t.pass();
});
