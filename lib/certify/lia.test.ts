import test from 'ava';
import fc from 'fast-check';
import { cond } from '../ir/testing/builder.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { equivalent, implies, isSatisfiable, isValid } from './lia.js';

test.after.always(async () => {
  await shutdownZ3();
});

const VARS = ['x', 'y', 'z'] as const;

/** Random formulas over x, y, z with small coefficients: atoms of both relations, and/or/not. */
const formulaArb: fc.Arbitrary<Formula> = fc.letrec<{ f: Formula }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .record({
        coeffs: fc.tuple(...VARS.map(() => fc.integer({ min: -3, max: 3 }))),
        constant: fc.integer({ min: -6, max: 6 }),
        rel: fc.constantFrom<F.Relation>('>=', '=='),
      })
      .map(({ coeffs, constant, rel }) => {
        const e = L.fromTerms(VARS.map((v, i) => [v, BigInt(coeffs[i]!)] as [string, bigint]), BigInt(constant));
        return rel === '>=' ? F.geqZero(e) : F.eqZero(e);
      }),
    tie('f').map((g) => F.not(g)),
    fc.array(tie('f'), { minLength: 2, maxLength: 3 }).map((gs) => F.and(...gs)),
    fc.array(tie('f'), { minLength: 2, maxLength: 3 }).map((gs) => F.or(...gs)),
  ),
})).f;

const envOf = (values: ReadonlyMap<string, bigint>) => (v: string): bigint => {
  const value = values.get(v);
  if (value === undefined) throw new Error(`model has no value for ${v}`);
  return value;
};

/** Some point of the box [-4, 4]^3 where f holds, or null. */
function pointInBox(f: Formula): Map<string, bigint> | null {
  for (let x = -4n; x <= 4n; x++)
    for (let y = -4n; y <= 4n; y++)
      for (let z = -4n; z <= 4n; z++) {
        const point = new Map([['x', x], ['y', y], ['z', z]]);
        if (F.evaluate(f, envOf(point))) return point;
      }
  return null;
}

test('models of satisfiable random formulas satisfy them; unsat ones have no point in a box', async (t) => {
  let sat = 0;
  let unsat = 0;
  await fc.assert(
    fc.asyncProperty(formulaArb, async (f) => {
      const result = await isSatisfiable(f);
      if (result.status === 'sat') {
        sat++;
        for (const v of F.variablesOf(f)) if (!result.model!.has(v)) return false;
        return F.evaluate(f, envOf(result.model!));
      }
      if (result.status === 'unsat') {
        unsat++;
        return pointInBox(f) === null;
      }
      return false;
    }),
    { numRuns: 60, seed: 4242 },
  );
  // The generator must exercise both answers, or the property says little.
  t.true(sat > 10 && unsat > 3, `sat ${sat}, unsat ${unsat}`);
});

test('tautologies built from random formulas are valid', async (t) => {
  await fc.assert(
    fc.asyncProperty(formulaArb, formulaArb, async (f, g) => {
      const excludedMiddle = await isValid(F.or(f, F.not(f)));
      const weakening = await implies(F.and(f, g), f);
      const deMorgan = await equivalent(F.not(F.and(f, g)), F.or(F.not(f), F.not(g)));
      return excludedMiddle.status === 'valid' && weakening.status === 'valid' && deMorgan.status === 'valid';
    }),
    { numRuns: 20, seed: 7 },
  );
  t.pass();
});

test('invalid random formulas come with a real countermodel; valid ones hold on a box', async (t) => {
  let invalid = 0;
  await fc.assert(
    fc.asyncProperty(formulaArb, async (f) => {
      const result = await isValid(f);
      if (result.status === 'invalid') {
        invalid++;
        return !F.evaluate(f, envOf(result.counterexample!));
      }
      if (result.status === 'valid') return pointInBox(F.not(f)) === null;
      return false;
    }),
    { numRuns: 50, seed: 99 },
  );
  t.true(invalid > 10);
});

test('integer reasoning: 3x >= 1 && 2x <= 1 is unsat over the integers', async (t) => {
  const result = await isSatisfiable(cond('3*x >= 1 && 2*x <= 1'));
  t.is(result.status, 'unsat');
});

test('coefficients around 2^80 stay exact', async (t) => {
  const big = 2n ** 80n;
  const x = L.variable('x');
  const y = L.variable('y');
  // x * 2^80 == y + 1 with y >= 0: the least solution needs y = 2^80 - 1 exactly.
  const f = F.and(F.compare(L.scale(x, big), '==', L.addConstant(y, 1n)), F.compare(y, '>=', L.constant(0n)), F.compare(y, '<', L.constant(big)));
  const result = await isSatisfiable(f);
  t.is(result.status, 'sat');
  t.is(result.model!.get('x'), 1n);
  t.is(result.model!.get('y'), big - 1n);
  // One more than 2^80 - 1 is 2^80, which a JS number could not tell apart from 2^80 + 1.
  const off = await isSatisfiable(F.and(f, F.compare(y, '==', L.constant(big + 1n))));
  t.is(off.status, 'unsat');
  const tight = await implies(f, F.compare(y, '==', L.constant(big - 1n)));
  t.is(tight.status, 'valid');
});

test('implies and equivalent give countermodels that separate the formulas', async (t) => {
  const a = cond('x >= 0');
  const b = cond('x >= 1');
  const notImplied = await implies(a, b);
  t.is(notImplied.status, 'invalid');
  const cex = envOf(notImplied.counterexample!);
  t.true(F.evaluate(a, cex) && !F.evaluate(b, cex));
  t.is((await implies(b, a)).status, 'valid');
  const notEquivalent = await equivalent(a, b);
  t.is(notEquivalent.status, 'invalid');
  const sep = envOf(notEquivalent.counterexample!);
  t.not(F.evaluate(a, sep), F.evaluate(b, sep));
  // Over the integers x > 0 and x >= 1 are the same.
  t.is((await equivalent(cond('x > 0'), b)).status, 'valid');
});

/** Subset sum with 40 odd coefficients of ~36 bits: far beyond a few milliseconds for z3. */
function hardSubsetSum(): Formula {
  let seed = 12345n;
  const next = (): bigint => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
    return (seed >> 24n) % (1n << 36n);
  };
  const parts: Formula[] = [];
  const terms: [string, bigint][] = [];
  for (let i = 0; i < 40; i++) {
    const v = L.variable(`b${i}`);
    parts.push(F.compare(v, '>=', L.constant(0n)), F.compare(v, '<=', L.constant(1n)));
    terms.push([`b${i}`, next()]);
  }
  const half = terms.reduce((sum, [, k]) => sum + k, 0n) / 2n;
  return F.and(...parts, F.eqZero(L.fromTerms(terms, -half)));
}

test('a time limit turns into unknown with a timeout reason', async (t) => {
  const result = await isSatisfiable(hardSubsetSum(), { timeLimitMs: 20 });
  t.is(result.status, 'unknown');
  t.regex(result.reason ?? '', /timeout after 20 ms/);
  const validity = await isValid(F.not(hardSubsetSum()), { timeLimitMs: 20 });
  t.is(validity.status, 'unknown');
});
