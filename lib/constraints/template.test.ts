// Templates and known formulas as parametric atoms: normal forms agree with the formula, decoding a
// solved template and "the template at a state" agree with each other and with instantiation.
import test from 'ava';
import fc from 'fast-check';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { evaluatePoly } from './system.js';
import { decodeTemplate, instantiate, knownCnf, knownDnf, makeTemplate, negateAtom, templateAtState, templateUnknowns, type ParamAtom } from './template.js';

const VARS = ['x', 'y'] as const;

const linearArb: fc.Arbitrary<Linear> = fc
  .tuple(fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: -5, max: 5 }))
  .map(([a, b, c]) => L.fromTerms([['x', BigInt(a)], ['y', BigInt(b)]], BigInt(c)));

const formulaArb: fc.Arbitrary<Formula> = fc.letrec<{ f: Formula }>((tie) => ({
  f: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    linearArb.map((e) => F.geqZero(e)),
    linearArb.map((e) => F.eqZero(e)),
    fc.constantFrom(F.TRUE, F.FALSE),
    tie('f').map((g) => F.not(g)),
    fc.array(tie('f'), { minLength: 2, maxLength: 3 }).map((gs) => F.and(...gs)),
    fc.array(tie('f'), { minLength: 2, maxLength: 3 }).map((gs) => F.or(...gs)),
  ),
})).f;

const pointArb = fc.tuple(fc.integer({ min: -8, max: 8 }), fc.integer({ min: -8, max: 8 })).map(([x, y]) => new Map([['x', BigInt(x)], ['y', BigInt(y)]]));

/** A parametric atom with constant coefficients, evaluated at a point. */
function atomHolds(a: ParamAtom, point: ReadonlyMap<string, bigint>): boolean {
  let sum = constantOf(a.constant);
  for (const [w, k] of a.coeffs) sum += constantOf(k) * point.get(w)!;
  return sum >= 0n;
}

function constantOf(e: Linear): bigint {
  if (!L.isConstant(e)) throw new Error(`expected a known coefficient, got ${L.toC(e)}`);
  return e.constant;
}

test('knownDnf and knownCnf are equivalent to the formula on random points', (t) => {
  let nonTrivial = 0;
  fc.assert(
    fc.property(formulaArb, fc.array(pointArb, { minLength: 5, maxLength: 5 }), (f, points) => {
      const dnf = knownDnf(f);
      const cnf = knownCnf(f);
      for (const p of points) {
        const expected = F.evaluate(f, (v) => p.get(v)!);
        const viaDnf = dnf.some((cube) => cube.every((a) => atomHolds(a, p)));
        const viaCnf = cnf.every((clause) => clause.some((a) => atomHolds(a, p)));
        if (viaDnf !== expected || viaCnf !== expected) return false;
        if (expected && dnf.length > 0 && cnf.length > 0) nonTrivial++;
      }
      return true;
    }),
    { numRuns: 300, seed: 4242 },
  );
  t.true(nonTrivial > 50, 'the property saw enough satisfiable, non-constant formulas');
});

test('known normal forms of the constants and of an equality', (t) => {
  t.deepEqual(knownDnf(F.TRUE), [[]]);
  t.deepEqual(knownDnf(F.FALSE), []);
  t.deepEqual(knownCnf(F.TRUE), []);
  t.deepEqual(knownCnf(F.FALSE), [[]]);
  // x == y: one cube of two inequalities; as CNF two unit clauses.
  const eq = F.eqZero(L.sub(L.variable('x'), L.variable('y')));
  t.is(knownDnf(eq).length, 1);
  t.is(knownDnf(eq)[0]!.length, 2);
  t.deepEqual(knownCnf(eq).map((c) => c.length), [1, 1]);
  // x != y: two cubes x - y - 1 >= 0 | y - x - 1 >= 0; one clause of two atoms.
  t.is(knownDnf(F.not(eq)).length, 2);
  t.deepEqual(knownCnf(F.not(eq)).map((c) => c.length), [2]);
});

test('negateAtom is the integer negation of an atom', (t) => {
  fc.assert(
    fc.property(linearArb, pointArb, (e, p) => {
      const atom: ParamAtom = { coeffs: new Map([...e.coeffs].map(([w, k]) => [w, L.constant(k)])), constant: L.constant(e.constant) };
      return atomHolds(negateAtom(atom), p) === !atomHolds(atom, p);
    }),
    { numRuns: 200, seed: 7 },
  );
  t.pass();
});

test('makeTemplate names one coefficient per variable and a constant per atom', (t) => {
  const tpl = makeTemplate(4, ['x', 'y', 'z'], { disjuncts: 2, conjuncts: 3 });
  const u = templateUnknowns(tpl);
  t.is(u.coefficients.length, 2 * 3 * 3);
  t.is(u.constants.length, 2 * 3);
  t.is(new Set([...u.coefficients, ...u.constants]).size, 2 * 3 * 4, 'all names distinct');
  t.true(u.coefficients.every((n) => n.startsWith('I4.')));
  t.is(tpl.coefficient[1]![2]![0], 'I4.1.2.x');
  t.is(tpl.constant[0]![1], 'I4.0.1.const');
});

const shapeArb = fc.record({ disjuncts: fc.integer({ min: 1, max: 2 }), conjuncts: fc.integer({ min: 1, max: 3 }) });

test('decodeTemplate, templateAtState and instantiate agree on random values and states', (t) => {
  fc.assert(
    fc.property(
      shapeArb,
      fc.array(fc.integer({ min: -4, max: 4 }), { minLength: 18, maxLength: 18 }),
      pointArb,
      fc.tuple(linearArb, linearArb),
      (shape, raw, state, [sx, sy]) => {
        const tpl = makeTemplate(2, VARS, shape);
        const names = [...templateUnknowns(tpl).coefficients, ...templateUnknowns(tpl).constants];
        const values = new Map(names.map((n, i) => [n, BigInt(raw[i % raw.length]! * (i % 3 === 0 ? 3 : 1))]));
        const value = (u: string): bigint => values.get(u)!;
        const decoded = decodeTemplate(tpl, value);
        const env = (p: ReadonlyMap<string, bigint>) => (v: string) => p.get(v)!;
        // templateAtState: disjunction over disjuncts of all constraints >= 0.
        const atState = templateAtState(tpl, state);
        if (atState.length !== shape.disjuncts || atState.some((c) => c.length !== shape.conjuncts)) return false;
        const viaState = atState.some((conj) => conj.every((k) => k.rel === '>=' && evaluatePoly(k.poly, value) >= 0n));
        if (viaState !== F.evaluate(decoded, env(state))) return false;
        // instantiate under σ = [sx/x, sy/y], evaluated at `state`, is the decoded template at σ(state).
        const subst = new Map([['x', sx], ['y', sy]]);
        const image = new Map([['x', L.evaluate(sx, env(state))], ['y', L.evaluate(sy, env(state))]]);
        const inst = instantiate(tpl, subst);
        const viaInst = inst.some((conj) =>
          conj.every((a) => {
            let sum = L.evaluate(a.constant, value);
            for (const [w, k] of a.coeffs) sum += L.evaluate(k, value) * state.get(w)!;
            return sum >= 0n;
          }),
        );
        return viaInst === F.evaluate(decoded, env(image));
      },
    ),
    { numRuns: 300, seed: 99 },
  );
  t.pass();
});

test('decodeTemplate plugs the values in: 1x2 template x - 1 >= 0 && -y + 2 >= 0', (t) => {
  const tpl = makeTemplate(0, ['x', 'y'], { disjuncts: 1, conjuncts: 2 });
  const values: Record<string, bigint> = { 'I0.0.0.x': 1n, 'I0.0.0.y': 0n, 'I0.0.0.const': -1n, 'I0.0.1.x': 0n, 'I0.0.1.y': -1n, 'I0.0.1.const': 2n };
  const f = decodeTemplate(tpl, (u) => values[u]!);
  t.is(F.toC(f), 'x >= 1 && y <= 2');
  // A state variable the template does not mention counts as 0 in templateAtState.
  const cs = templateAtState(tpl, new Map([['x', 5n]]));
  t.is(evaluatePoly(cs[0]![0]!.poly, (u) => values[u]!), 4n);
  t.is(evaluatePoly(cs[0]![1]!.poly, (u) => values[u]!), 2n);
});
