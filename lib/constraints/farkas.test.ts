// Farkas' lemma as implemented: any solution of the constraint system of a VC with known formulas
// proves the VC (soundness, checked by brute force on random VCs), valid VCs have solutions, and the
// paper's worked example (note 004 §4) comes out coefficient by coefficient.
import test from 'ava';
import fc from 'fast-check';
import { parseProgram } from '../frontend/index.js';
import * as F from '../ir/formula.js';
import type { Formula } from '../ir/formula.js';
import * as L from '../ir/linear.js';
import type { Linear } from '../ir/linear.js';
import { cond } from '../ir/testing/builder.js';
import { prepareCutset } from '../vc/cutset.js';
import { enumeratePaths } from '../vc/paths.js';
import { pathConditions, type VerificationCondition } from '../vc/vc.js';
import { buildFarkasSystem } from './farkas.js';
import { MAX_DNF_CUBES, MAX_GUARD_CUBES, WorkLimitExceeded } from '../limits.js';
import { knownAtom, makeNamedTemplate, makeTemplate } from './template.js';
import { polyFromTerms, satisfies, type ConstraintSystem, type Polynomial } from './system.js';

/** ∀x,y. guards ⇒ assertion, as a VC from a cut-point with a known (true) relation. */
function knownVc(guards: Formula, assertion: Formula): VerificationCondition {
  return {
    from: 0,
    to: null,
    guards,
    conclusion: { kind: 'assertion', formula: assertion, pos: { file: 't.c', line: 1, col: 1 } },
    path: { from: 0, to: null, edges: [] },
  };
}

function systemOf(guards: Formula, assertion: Formula): ConstraintSystem {
  return buildFarkasSystem({ vcs: [knownVc(guards, assertion)], templates: new Map(), known: new Map() }).system;
}

/**
 * Brute force over multiplier values 0..max. With no templates every unknown is a multiplier and the
 * constraints of different Farkas applications share none, so each group is searched on its own.
 * Returns a satisfying assignment, or null when none exists in the range (or a group is too large).
 */
function bruteForce(system: ConstraintSystem, max = 3n, maxGroup = 7): Map<string, bigint> | null {
  const parent = new Map<string, string>(system.unknowns.map((u) => [u.name, u.name]));
  const find = (a: string): string => (parent.get(a) === a ? a : find(parent.get(a)!));
  for (const c of system.constraints) {
    const names = [...c.poly.terms.values()].flatMap((term) => term.vars);
    for (const n of names.slice(1)) parent.set(find(n), find(names[0]!));
  }
  const groups = new Map<string, string[]>();
  for (const u of system.unknowns) groups.set(find(u.name), [...(groups.get(find(u.name)) ?? []), u.name]);
  const solution = new Map<string, bigint>(system.unknowns.map((u) => [u.name, 0n]));
  // Constraints without unknowns (`-1 >= 0` for `true ⇒ false`) must hold as they are.
  const ground = system.constraints.filter((c) => [...c.poly.terms.values()].every((term) => term.vars.length === 0));
  if (!satisfies({ unknowns: [], constraints: ground }, () => 0n)) return null;
  for (const names of groups.values()) {
    if (names.length > maxGroup) return null;
    const inGroup = new Set(names);
    const constraints = system.constraints.filter((c) => [...c.poly.terms.values()].some((term) => term.vars.some((v) => inGroup.has(v))));
    const sub: ConstraintSystem = { unknowns: system.unknowns.filter((u) => inGroup.has(u.name)), constraints };
    const values = names.map(() => 0n);
    let found = false;
    for (;;) {
      const current = new Map(names.map((n, i) => [n, values[i]!]));
      if (satisfies(sub, (n) => current.get(n)!)) {
        for (const [n, v] of current) solution.set(n, v);
        found = true;
        break;
      }
      let i = 0;
      while (i < values.length && values[i] === max) values[i++] = 0n;
      if (i === values.length) break;
      values[i]!++;
    }
    if (!found) return null;
  }
  return solution;
}

function validOnBox(guards: Formula, assertion: Formula, radius = 7n): boolean {
  for (let x = -radius; x <= radius; x++) {
    for (let y = -radius; y <= radius; y++) {
      const env = (v: string) => (v === 'x' ? x : y);
      if (F.evaluate(guards, env) && !F.evaluate(assertion, env)) return false;
    }
  }
  return true;
}

const linearArb: fc.Arbitrary<Linear> = fc
  .tuple(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -2, max: 2 }), fc.integer({ min: -4, max: 4 }))
  .map(([a, b, c]) => L.fromTerms([['x', BigInt(a)], ['y', BigInt(b)]], BigInt(c)));

const atomArb: fc.Arbitrary<Formula> = fc.oneof(
  { arbitrary: linearArb.map(F.geqZero), weight: 4 },
  { arbitrary: linearArb.map(F.eqZero), weight: 1 },
);

/** Guards: 1–2 atoms; assertion: an atom, a disjunction or a conjunction of two, or (to make many VCs
 * valid) a weakened non-negative combination of the guards. */
const vcArb = fc
  .tuple(fc.array(atomArb, { minLength: 1, maxLength: 2 }), atomArb, atomArb, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 2 }))
  .map(([gs, a, b, mode, k1, k2, slack]) => {
    const guards = F.and(...gs);
    let assertion: Formula;
    if (mode === 0) assertion = a;
    else if (mode === 1) assertion = F.or(a, b);
    else if (mode === 2) assertion = F.and(a, b);
    else {
      const exprs = gs.map((g) => (g.kind === 'atom' ? g.expr : L.constant(0n)));
      const combo = L.add(L.scale(exprs[0]!, BigInt(k1)), exprs[1] ? L.scale(exprs[1], BigInt(k2)) : L.constant(0n));
      assertion = mode === 3 ? F.geqZero(L.addConstant(combo, BigInt(slack))) : F.or(F.geqZero(L.addConstant(combo, BigInt(slack))), b);
    }
    return { guards, assertion };
  });

test('soundness: a solution of the Farkas system means the VC is valid (random VCs, brute force)', (t) => {
  let solved = 0;
  let cases = 0;
  fc.assert(
    fc.property(vcArb, ({ guards, assertion }) => {
      cases++;
      const system = systemOf(guards, assertion);
      if (system.unknowns.some((u) => u.kind !== 'multiplier' || !u.nonNegative)) return false;
      const solution = bruteForce(system);
      if (solution === null) return true;
      solved++;
      if (!satisfies(system, (n) => solution.get(n)!)) return false;
      return validOnBox(guards, assertion);
    }),
    { numRuns: 400, seed: 20080607 },
  );
  t.is(cases, 400);
  // Not vacuous: a good share of the random VCs were actually proved.
  t.true(solved >= 60, `only ${solved} of ${cases} random VCs had a solution`);
});

const validVcs: Array<[string, string]> = [
  ['x >= 1 && y >= x', 'y >= 1'],
  ['x >= 2 && y >= 3', 'x + y >= 5 || x >= 10'],
  ['x == y', 'x - y <= 0'],
  ['x == y + 1', 'x > y && 2 * x >= 2 * y'],
  ['x >= 0', 'x >= -3'],
  ['x >= 1 && x <= 0', 'y >= 100'],
  ['x + y <= 3 && x >= 1', 'y <= 2'],
  ['true', 'x <= x + 1'],
  ['x - 2 * y >= 1 && y >= 1', 'x >= 3'],
  // Over the rationals 1/3 <= x <= 1/2; each known atom is tightened over the integers first
  // (x >= 1, x <= 0), and then Farkas refutes the premise.
  ['3 * x >= 1 && 2 * x <= 1', 'false'],
  // The conclusion's atom too: 2x >= 100 is x >= 50, from the guard with a multiplier of 1.
  ['x >= 50', '2 * x >= 100'],
];

test('completeness on hand-picked valid VCs: the system has a solution with small multipliers', (t) => {
  for (const [g, a] of validVcs) {
    t.true(validOnBox(cond(g), cond(a)), `${g} => ${a} is valid`);
    const system = systemOf(cond(g), cond(a));
    const solution = bruteForce(system);
    t.not(solution, null, `${g} => ${a} should be provable`);
    if (solution) t.true(satisfies(system, (n) => solution.get(n)!));
  }
});

test('invalid VCs, and the integer-only one Farkas cannot see, have no solution', (t) => {
  const cases: Array<[string, string]> = [
    ['x >= 0', 'x >= 1'],
    ['true', 'x >= 0'],
    ['x >= 0 && y >= 0', 'x + y >= 1'],
    // Unsatisfiable over the integers only (x == 1/2, y == 1/4 over the rationals), and no atom
    // tightens (each one's coefficients have gcd 1): lost by Farkas over the rationals.
    ['x + 2 * y == 1 && x == 2 * y', 'false'],
  ];
  for (const [g, a] of cases) t.is(bruteForce(systemOf(cond(g), cond(a)), 3n, 8), null, `${g} => ${a}`);
  // `true ⇒ false` has no Farkas application at all, just an unsatisfiable constant constraint.
  const trivial = systemOf(F.TRUE, F.FALSE);
  t.is(trivial.unknowns.length, 0);
  t.false(satisfies(trivial, () => 0n));
});

test("the paper's worked example: Fig. 1's first VC with template e1 >= 0 || e2 >= 0", (t) => {
  const program = parseProgram('void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\n', 'pv1.c');
  const cut = prepareCutset(program.procedures.get('PV1')!, 'headers');
  const header = cut.cutpoints.find((c) => c !== cut.proc.entry && c !== cut.proc.exit)!;
  const [first] = enumeratePaths(cut.proc, cut.cutpoints)
    .filter((p) => p.from === cut.proc.entry)
    .flatMap((p) => pathConditions(p, (c) => c === header));
  t.truthy(first);
  const tpl = makeTemplate(header, ['x', 'y'], { disjuncts: 2, conjuncts: 1 });
  const { system, applications } = buildFarkasSystem({ vcs: [first!], templates: new Map([[header, tpl]]), known: new Map() });
  // e1 = a1·x + a2·y + a3, e2 = a4·x + a5·y + a6; with x := -50.
  const [a1, a2, a3] = [tpl.coefficient[0]![0]![0]!, tpl.coefficient[0]![0]![1]!, tpl.constant[0]![0]!];
  const [a4, a5, a6] = [tpl.coefficient[1]![0]![0]!, tpl.coefficient[1]![0]![1]!, tpl.constant[1]![0]!];
  t.is(applications, 1, 'one clause ¬((−e1 − 1 >= 0) ∧ (−e2 − 1 >= 0))');
  const multipliers = system.unknowns.filter((u) => u.kind === 'multiplier');
  t.is(multipliers.length, 2);
  t.true(multipliers.every((m) => m.nonNegative));
  const [l1, l2] = multipliers.map((m) => m.name) as [string, string];
  t.is(system.unknowns.filter((u) => u.kind === 'coefficient').length, 4);
  t.is(system.unknowns.filter((u) => u.kind === 'constant').length, 2);
  t.is(system.constraints.length, 2, 'x is substituted away: one equation for y, one for the constant');
  const [yEq, constant] = system.constraints as [typeof system.constraints[0], typeof system.constraints[0]];
  // y: a2·λ1 + a5·λ2 = 0
  t.is(yEq.rel, '==');
  t.regex(yEq.origin ?? '', /coefficient of y/);
  const expectedY = polyFromTerms([{ vars: [a2, l1], coeff: 1n }, { vars: [a5, l2], coeff: 1n }]);
  t.true(samePoly(yEq.poly, expectedY) || samePoly(yEq.poly, negatePoly(expectedY)));
  // constant: (50a1 − a3 − 1)λ1 + (50a4 − a6 − 1)λ2 = −λ with λ >= 1, i.e. −1 − that sum >= 0.
  t.is(constant.rel, '>=');
  const expectedConstant = polyFromTerms([
    { vars: [], coeff: -1n },
    { vars: [a1, l1], coeff: -50n }, { vars: [a3, l1], coeff: 1n }, { vars: [l1], coeff: 1n },
    { vars: [a4, l2], coeff: -50n }, { vars: [a6, l2], coeff: 1n }, { vars: [l2], coeff: 1n },
  ]);
  t.true(samePoly(constant.poly, expectedConstant), `got ${[...constant.poly.terms.keys()].join(' ')}`);
  // A real invariant (x >= -50 as e1, any e2) with λ1 = 1 solves it; e1 = x + 49 (false at x = -50) does not.
  const good: Record<string, bigint> = { [a1]: 1n, [a2]: 0n, [a3]: 50n, [a4]: 0n, [a5]: 0n, [a6]: -1n, [l1]: 1n, [l2]: 0n };
  t.true(satisfies(system, (n) => good[n]!));
  for (const lam1 of [0n, 1n, 2n, 3n]) {
    for (const lam2 of [0n, 1n, 2n, 3n]) {
      const bad: Record<string, bigint> = { ...good, [a3]: 49n, [a6]: -100n, [l1]: lam1, [l2]: lam2 };
      t.false(satisfies(system, (n) => bad[n]!));
    }
  }
});

function samePoly(a: Polynomial, b: Polynomial): boolean {
  if (a.terms.size !== b.terms.size) return false;
  for (const [k, term] of a.terms) if (b.terms.get(k)?.coeff !== term.coeff) return false;
  return true;
}

function negatePoly(p: Polynomial): Polynomial {
  return polyFromTerms([...p.terms.values()].map((term) => ({ vars: term.vars, coeff: -term.coeff })));
}

test('a template on both sides (loop VC of Fig. 1) gives bilinear constraints only', (t) => {
  const program = parseProgram('void PV1(int y) { int x = -50; while (x < 0) { x = x + y; y++; } assert(y > 0); }\n', 'pv1.c');
  const cut = prepareCutset(program.procedures.get('PV1')!, 'headers');
  const header = cut.cutpoints.find((c) => c !== cut.proc.entry && c !== cut.proc.exit)!;
  const vcs = enumeratePaths(cut.proc, cut.cutpoints).flatMap((p) => pathConditions(p, (c) => c === header));
  const tpl = makeTemplate(header, ['x', 'y'], { disjuncts: 2, conjuncts: 2 });
  const { system, applications } = buildFarkasSystem({ vcs, templates: new Map([[header, tpl]]), known: new Map() });
  // VC0: 1 LHS cube × 4 RHS clauses; VC1: 2 LHS disjuncts × 4 clauses; VC2: 2 LHS disjuncts × 1 clause.
  t.is(applications, 4 + 8 + 2);
  const names = new Set(system.unknowns.map((u) => u.name));
  t.is(names.size, system.unknowns.length, 'unknown names are distinct');
  for (const c of system.constraints) {
    for (const term of c.poly.terms.values()) {
      t.true(term.vars.length <= 2);
      for (const v of term.vars) t.true(names.has(v), `${v} is declared`);
      if (term.vars.length === 2) t.true(term.vars.some((v) => system.unknowns.find((u) => u.name === v)!.kind === 'multiplier'), 'every product has a multiplier');
    }
  }
});

test('a summarised call splits the hypothesis: one case per negated pre-condition atom, one per post-condition disjunct', (t) => {
  // r := f(x); assert(r >= x), with f summarised by one pair (pre over a, post over a and f!ret).
  const pre = makeNamedTemplate('A.f.0', ['a'], { disjuncts: 1, conjuncts: 2 });
  const post = makeNamedTemplate('B.f.0', ['a', 'f!ret'], { disjuncts: 1, conjuncts: 1 });
  const vc: VerificationCondition = {
    ...knownVc(F.TRUE, F.geqZero(L.sub(L.variable('r!h0'), L.variable('x')))),
    calls: [{ callee: 'f', subst: new Map([['a', L.variable('x')], ['f!ret', L.variable('r!h0')]]) }],
  };
  const summaries = new Map([['f', [{ pre, post }]]]);
  const { system, applications } = buildFarkasSystem({ vcs: [vc], templates: new Map(), known: new Map(), summaries, multiplierPrefix: 'm' });
  t.is(applications, 3);
  t.true(system.unknowns.every((u) => u.name.startsWith('m')), 'summary unknowns are declared by the caller');

  // Fix the summary, then search the multipliers (0..2): the system is linear in them.
  const solvable = (values: Record<string, bigint>): boolean => {
    const mults = system.unknowns.map((u) => u.name);
    const assignment = new Map<string, bigint>();
    const search = (k: number): boolean => {
      if (k === mults.length) return satisfies(system, (u) => values[u] ?? assignment.get(u) ?? 0n);
      for (let m = 0n; m <= 2n; m++) {
        assignment.set(mults[k]!, m);
        if (search(k + 1)) return true;
      }
      return false;
    };
    return search(0);
  };
  // true => \result >= a proves the assertion (the second pre atom is the trivial 0 >= 0).
  const good = { 'A.f.0.0.0.a': 0n, 'A.f.0.0.0.const': 0n, 'A.f.0.0.1.a': 0n, 'A.f.0.0.1.const': 0n, 'B.f.0.0.0.a': -1n, 'B.f.0.0.0.f!ret': 1n, 'B.f.0.0.0.const': 0n };
  t.true(solvable(good));
  // true => \result >= a - 1 does not; nor does a >= 0 => \result >= a (x may be negative).
  t.false(solvable({ ...good, 'B.f.0.0.0.const': 1n }));
  t.false(solvable({ ...good, 'A.f.0.0.0.a': 1n }));
});

// ---- Size limits (lib/limits.ts): counted, so the same on any machine, and never a crash ------------

/** `(x >= 0 || y >= k) && …` for k < n: a guard of 2^n cases in DNF. */
function wideGuard(n: number): Formula {
  return F.and(...Array.from({ length: n }, (_, k) => cond(`x >= ${k} || y >= ${k}`)));
}

test('a formula whose DNF exceeds the limit throws WorkLimitExceeded; one at the limit does not', (t) => {
  t.is(F.dnf(wideGuard(12), MAX_DNF_CUBES).length, MAX_DNF_CUBES);
  t.throws(() => F.dnf(wideGuard(13), MAX_DNF_CUBES), { instanceOf: WorkLimitExceeded, message: /more than 4096 cases/ });
  t.throws(() => F.dnf(F.or(...Array.from({ length: 5 }, (_, k) => cond(`x >= ${k}`))), 4), { instanceOf: WorkLimitExceeded });
});

test('a guard of more cases than MAX_GUARD_CUBES is weakened: fewer applications, and still only valid VCs are provable', (t) => {
  // 2^13 cases, and an atom that the proof needs (x >= 5 => x >= 3): the atom is kept (it has one case).
  const guard = F.and(wideGuard(13), cond('x >= 5'));
  const provable = buildFarkasSystem({ vcs: [knownVc(guard, cond('x >= 3'))], templates: new Map(), known: new Map() });
  t.true(provable.applications <= MAX_GUARD_CUBES);
  t.not(bruteForce(provable.system, 1n, 10), null);
  // Weakening only drops premises: a VC that is not valid stays unprovable.
  const invalid = buildFarkasSystem({ vcs: [knownVc(guard, cond('x >= 6'))], templates: new Map(), known: new Map() });
  t.is(bruteForce(invalid.system, 1n, 10), null);
});

test('a known atom is tightened over the integers: divided by its coefficients\' gcd, the constant rounded down', (t) => {
  const atom = (e: Linear) => { const a = knownAtom(e); return `${[...a.coeffs].map(([w, k]) => `${L.toC(k)}*${w}`).join(' + ')} + ${L.toC(a.constant)}`; };
  t.is(atom(L.fromTerms([['x', 2n]], -101n)), '1*x + -51');
  t.is(atom(L.fromTerms([['x', -3n], ['y', 6n]], 1n)), '-1*x + 2*y + 0');
  t.is(atom(L.fromTerms([['x', 1n], ['y', 2n]], -7n)), '1*x + 2*y + -7');
  // Equivalent over the integers: the same x satisfy both.
  for (let x = -60n; x <= 60n; x++) t.is(2n * x - 101n >= 0n, x - 51n >= 0n);
});

test('eliminations: where a cut-point is left, the variables its facts fix are replaced by their values', (t) => {
  // A loop VC at cut-point 1 with the fact y == x + 1 there: y := x + 1 on the way in. The template
  // over x alone (y is fixed) and the known relation: x >= 0 ⇒ after x++ and y++, still x >= 0.
  const template = makeTemplate(1, ['x'], { disjuncts: 1, conjuncts: 1 });
  const vc: VerificationCondition = {
    from: 1,
    to: 1,
    guards: cond('y <= 10'),
    conclusion: { kind: 'relation', app: { cutpoint: 1, subst: new Map([['x', L.fromTerms([['x', 1n]], 1n)], ['y', L.fromTerms([['y', 1n]], 1n)]]) } },
    path: { from: 1, to: 1, edges: [] },
  };
  const fact = cond('y == x + 1');
  const input = { vcs: [vc], templates: new Map([[1, template]]), known: new Map(), strengthening: new Map([[1, fact]]) };
  const plain = buildFarkasSystem(input).system;
  const eliminated = buildFarkasSystem({ ...input, eliminations: new Map([[1, new Map([['y', L.fromTerms([['x', 1n]], 1n)]])]]) }).system;
  const mentionsY = (s: ConstraintSystem) => s.constraints.some((c) => / of y$/.test(c.origin ?? ''));
  t.true(mentionsY(plain));
  t.false(mentionsY(eliminated), 'no program variable y is left for Farkas to remove');
  t.true(eliminated.unknowns.length < plain.unknowns.length, `${eliminated.unknowns.length} < ${plain.unknowns.length} unknowns`);
  // Both say the same about x >= 0 (coefficient 1, constant 0): a solution exists with the template fixed so.
  const fixedTemplate = (s: ConstraintSystem): ConstraintSystem => ({
    unknowns: s.unknowns.filter((u) => u.kind === 'multiplier'),
    constraints: s.constraints.map((c) => ({ ...c, poly: substituteKnown(c.poly, new Map([['I1.0.0.x', 1n], ['I1.0.0.const', 0n]])) })),
  });
  t.not(bruteForce(fixedTemplate(eliminated)), null);
  t.not(bruteForce(fixedTemplate(plain)), null);
});

/** The polynomial with some unknowns set to values. */
function substituteKnown(p: Polynomial, values: ReadonlyMap<string, bigint>): Polynomial {
  return polyFromTerms([...p.terms.values()].map((term) => {
    let coeff = term.coeff;
    const vars = term.vars.filter((v) => {
      const value = values.get(v);
      if (value === undefined) return true;
      coeff *= value;
      return false;
    });
    return { vars, coeff };
  }));
}
