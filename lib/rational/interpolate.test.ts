// Property tests of Farkas interpolation, decided independently by z3 over the integers: every
// sequence interpolant is implied by its prefix (and by the previous interpolant with its group),
// is inconsistent with its suffix, and mentions shared variables only.
import test from 'ava';
import fc from 'fast-check';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { implies, isSatisfiable } from '../certify/lia.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { atomVariables, cubeToFormula, type Atom } from './constraints.js';
import { binaryInterpolant, sequenceInterpolants } from './interpolate.js';
import { farkasCertificate, verifyCertificate } from './farkas-certificate.js';

test.after.always(() => shutdownZ3());

const VARS = ['x', 'y', 'z', 'w'];
const atomArb: fc.Arbitrary<Atom> = fc
  .record({
    rel: fc.constantFrom<'>=' | '=='>('>=', '>=', '>=', '=='),
    coeffs: fc.array(fc.tuple(fc.constantFrom(...VARS), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 3 }),
    constant: fc.integer({ min: -6, max: 6 }),
  })
  .map(({ rel, coeffs, constant }) => ({ rel, expr: L.fromTerms(coeffs.map(([v, k]) => [v, BigInt(k)] as [string, bigint]), BigInt(constant)) }));
const groupsArb = fc.array(fc.array(atomArb, { minLength: 1, maxLength: 3 }), { minLength: 2, maxLength: 4 });

const x = L.variable('x');
const y = L.variable('y');
const geq = (e: L.Linear): Atom => ({ rel: '>=', expr: e });
const eq = (e: L.Linear): Atom => ({ rel: '==', expr: e });

test('x >= 1, y == x against y <= 0 gives an interpolant over y only', async (t) => {
  const i = binaryInterpolant([geq(L.addConstant(x, -1n)), eq(L.sub(y, x))], [geq(L.negate(y))]);
  t.truthy(i);
  t.deepEqual([...F.variablesOf(i!)], ['y']);
  t.is(F.toC(i!), 'y >= 1');
});

test('inequalitiesOnly states the same certificate as an inequality (weaker, still refutes the suffix)', (t) => {
  const i = binaryInterpolant([eq(L.sub(y, x)), eq(L.addConstant(x, -2n))], [geq(L.addConstant(L.negate(y), 1n))], { inequalitiesOnly: true });
  t.is(F.toC(i!), 'y >= 2');
});

test('equalities combine into an equality interpolant', (t) => {
  const i = binaryInterpolant([eq(L.sub(y, x)), eq(L.addConstant(x, -2n))], [geq(L.addConstant(L.negate(y), 1n))]);
  t.is(F.toC(i!), 'y == 2');
});

test('infeasible over the integers only: 2x == 1 is normalised to false; x + y <= 0 & x+y >= 1 by halves has a certificate', (t) => {
  t.deepEqual(sequenceInterpolants([[eq(L.addConstant(L.scale(x, 2n), -1n))], [geq(y)]]), { status: 'interpolants', interpolants: [F.FALSE] });
  // 2x - 2y >= 1 and 2x - 2y <= 0: normalised to x - y >= 1 and x - y <= 0.
  const a = geq(L.addConstant(L.sub(L.scale(x, 2n), L.scale(y, 2n)), -1n));
  const b = geq(L.sub(L.scale(y, 2n), L.scale(x, 2n)));
  t.is(sequenceInterpolants([[a], [b]]).status, 'interpolants');
});

test('a real-feasible, integer-infeasible conjunction has no certificate (the caller must not guess)', async (t) => {
  // y == 2x and y == 2z + 1: y is even and odd.
  const z = L.variable('z');
  const groups = [[eq(L.sub(y, L.scale(x, 2n)))], [eq(L.sub(y, L.addConstant(L.scale(z, 2n), 1n)))]];
  t.is((await isSatisfiable(F.and(...groups.map(cubeToFormula)))).status, 'unsat');
  t.deepEqual(sequenceInterpolants(groups), { status: 'no-certificate' });
});

test('property: certificates verify and interpolants are implied, inconsistent with the suffix, over shared variables', async (t) => {
  let infeasible = 0;
  await fc.assert(
    fc.asyncProperty(groupsArb, async (groups) => {
      const result = sequenceInterpolants(groups);
      const whole = F.and(...groups.map(cubeToFormula));
      const sat = await isSatisfiable(whole);
      if (result.status === 'no-certificate') return; // allowed only when feasible over the reals: not checked here
      t.is(sat.status, 'unsat', 'an interpolant sequence for a satisfiable conjunction');
      infeasible++;
      const { interpolants } = result;
      t.is(interpolants.length, groups.length - 1);
      for (let k = 0; k < interpolants.length; k++) {
        const prefix = F.and(...groups.slice(0, k + 1).map(cubeToFormula));
        const suffix = F.and(...groups.slice(k + 1).map(cubeToFormula));
        const i = interpolants[k]!;
        t.is((await implies(prefix, i)).status, 'valid', `prefix implies I_${k}`);
        t.is((await isSatisfiable(F.and(i, suffix))).status, 'unsat', `I_${k} inconsistent with the suffix`);
        const before = atomVariables(groups.slice(0, k + 1).flat());
        const after = atomVariables(groups.slice(k + 1).flat());
        for (const v of F.variablesOf(i)) t.true(before.has(v) && after.has(v), `I_${k} mentions ${v}, not shared`);
        if (k > 0) t.is((await implies(F.and(interpolants[k - 1]!, cubeToFormula(groups[k]!)), i)).status, 'valid', `I_${k - 1} ∧ G_${k} ⇒ I_${k}`);
      }
    }),
    { numRuns: 40, seed: 7 },
  );
  t.true(infeasible > 5, `only ${infeasible} infeasible samples`);
});

test('property: a certificate found is a valid certificate', (t) => {
  fc.assert(
    fc.property(fc.array(atomArb, { minLength: 1, maxLength: 6 }), (atoms) => {
      const m = farkasCertificate(atoms);
      if (m !== null) t.true(verifyCertificate(atoms, m));
    }),
    { numRuns: 300, seed: 11 },
  );
});
