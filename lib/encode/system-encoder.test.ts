import test from 'ava';
import fc from 'fast-check';
import {
  evaluatePoly,
  polyFromTerms,
  satisfies,
  type ConstraintSystem,
  type PolyConstraint,
  type Unknown,
  type UnknownKind,
  type Widths,
} from '../constraints/system.js';
import type { Cnf } from '../sat/types.js';
import { CnfBuilder } from './cnf-builder.js';
import { encodeSystem, encodeUnknowns, unknownRange, type UnknownOverride } from './system-encoder.js';
import { fixVector, Propagator, solveCnf } from './testing/test-solver.js';

// Random small systems are compared with brute-force enumeration of every assignment of their
// unknowns within the widths: SAT exactly when some assignment satisfies the system, every model
// decodes to a solution, every solution is a model and every non-solution is not.

const kinds: readonly UnknownKind[] = ['coefficient', 'constant', 'multiplier'];

const widthsArb: fc.Arbitrary<Widths> = fc.record({
  coefficient: fc.integer({ min: 1, max: 3 }),
  constant: fc.integer({ min: 1, max: 3 }),
  multiplier: fc.integer({ min: 1, max: 2 }),
});

const unknownsArb: fc.Arbitrary<Unknown[]> = fc
  .array(fc.record({ kind: fc.constantFrom(...kinds), nonNegative: fc.boolean() }), { minLength: 1, maxLength: 3 })
  .map((us) => us.map((u, i) => ({ name: `u${i}`, ...u })));

function constraintArb(names: readonly string[]): fc.Arbitrary<PolyConstraint> {
  const monomial = fc.oneof(
    fc.constant<string[]>([]),
    fc.constantFrom(...names).map((n) => [n]),
    fc.tuple(fc.constantFrom(...names), fc.constantFrom(...names)).map(([a, b]) => [a, b]),
  );
  const term = fc.record({ vars: monomial, coeff: fc.bigInt(-4n, 4n) });
  return fc.record({
    terms: fc.array(term, { minLength: 1, maxLength: 4 }),
    rel: fc.constantFrom<'==' | '>='>('==', '>='),
  }).map(({ terms, rel }) => ({ poly: polyFromTerms(terms), rel }));
}

const systemArb: fc.Arbitrary<{ system: ConstraintSystem; widths: Widths }> = fc
  .tuple(unknownsArb, widthsArb)
  .chain(([unknowns, widths]) =>
    fc.array(constraintArb(unknowns.map((u) => u.name)), { minLength: 1, maxLength: 3 }).map((constraints) => ({
      system: { unknowns, constraints },
      widths,
    })),
  );

type Assignment = Map<string, bigint>;

function rangeOf(u: Unknown, widths: Widths, override?: UnknownOverride): [bigint, bigint] {
  if (override?.value !== undefined) return [override.value, override.value];
  const [lo, hi] = unknownRange(override?.width ?? widths[u.kind], u.nonNegative);
  return [lo, hi];
}

function allAssignments(unknowns: readonly Unknown[], widths: Widths, overrides = new Map<string, UnknownOverride>()): Assignment[] {
  let acc: Assignment[] = [new Map()];
  for (const u of unknowns) {
    const [lo, hi] = rangeOf(u, widths, overrides.get(u.name));
    const next: Assignment[] = [];
    for (const a of acc) for (let v = lo; v <= hi; v++) next.push(new Map([...a, [u.name, v]]));
    acc = next;
  }
  return acc;
}

const holds = (system: ConstraintSystem, a: Assignment): boolean => satisfies(system, (n) => a.get(n)!);

/** Throws unless, for every assignment, the CNF with the unknowns pinned has a model exactly when `expected` holds. */
function checkEveryAssignment(
  cnf: Cnf,
  vector: (name: string) => { readonly bits: readonly number[]; readonly lo: bigint; readonly hi: bigint },
  assignments: readonly Assignment[],
  expected: (a: Assignment) => boolean,
): void {
  // Once the unknowns are fixed, unit propagation decides every gate, so it is a complete check here.
  const propagator = new Propagator(cnf);
  for (const a of assignments) {
    const implied = propagator.run([...a].flatMap(([name, v]) => fixVector(vector(name), v)));
    const isModel = implied !== null && propagator.satisfiedBy(implied);
    if (isModel !== expected(a)) throw new Error(`assignment ${[...a]} is ${isModel ? '' : 'not '}a model`);
  }
}

function pick<T>(xs: readonly T[], seed: number): T | undefined {
  return xs.length === 0 ? undefined : xs[seed % xs.length];
}

test('random systems: SAT exactly when brute force finds a solution; models, solutions and non-solutions agree', (t) => {
  fc.assert(
    fc.property(systemArb, fc.nat(), ({ system, widths }, seed) => {
      const encoded = encodeSystem(system, widths);
      const assignments = allAssignments(system.unknowns, widths);
      const solutions = assignments.filter((a) => holds(system, a));
      const model = solveCnf(encoded.cnf);
      if ((model !== null) !== (solutions.length > 0)) throw new Error(`SAT=${model !== null} but ${solutions.length} solutions`);
      if (model !== null) {
        const values = encoded.decode(model);
        if (!holds(system, values)) throw new Error('model does not satisfy the system');
        for (const u of system.unknowns) {
          const [lo, hi] = rangeOf(u, widths);
          const v = values.get(u.name)!;
          if (v < lo || v > hi) throw new Error(`${u.name} = ${v} outside [${lo}, ${hi}]`);
        }
      }
      // Pinning the unknowns' bits: a solution must be a model, a non-solution must not (MiniSat
      // checks one of each, unit propagation all of them).
      const fix = (a: Assignment) => system.unknowns.flatMap((u) => fixVector(encoded.encoder.vector(u.name), a.get(u.name)!));
      const solution = pick(solutions, seed);
      if (solution !== undefined && solveCnf(encoded.cnf, fix(solution)) === null) throw new Error('a solution is not a model');
      const nonSolution = pick(assignments.filter((a) => !holds(system, a)), seed);
      if (nonSolution !== undefined && solveCnf(encoded.cnf, fix(nonSolution)) !== null) throw new Error('a non-solution is a model');
      checkEveryAssignment(encoded.cnf, (n) => encoded.encoder.vector(n), assignments, (a) => holds(system, a));
    }),
    { numRuns: 150 },
  );
  t.pass();
});

test('constraint literals are equivalences: negating one constraint matches brute force', (t) => {
  fc.assert(
    fc.property(systemArb, ({ system, widths }) => {
      const encoder = encodeUnknowns(system.unknowns, widths);
      const b = encoder.builder;
      const [first, ...rest] = system.constraints as [PolyConstraint, ...PolyConstraint[]];
      // ¬first ∧ (rest combined by one OR gate and one AND gate, to exercise literal combination).
      const restLits = rest.map((c) => encoder.constraintLiteral(c));
      b.assertLit(-encoder.constraintLiteral(first));
      b.assertLit(b.andN(restLits));
      const wanted = (a: Assignment) =>
        !holds({ unknowns: system.unknowns, constraints: [first] }, a) && holds({ unknowns: system.unknowns, constraints: rest }, a);
      const assignments = allAssignments(system.unknowns, widths);
      const expected = assignments.some(wanted);
      checkEveryAssignment(b.toCnf(), (n) => encoder.vector(n), assignments, wanted);
      const model = solveCnf(b.toCnf());
      if ((model !== null) !== expected) throw new Error(`SAT=${model !== null}, brute force ${expected}`);
      if (model !== null) {
        const values = encoder.decode(model);
        const value = evaluatePoly(first.poly, (n) => values.get(n)!);
        if (first.rel === '==' ? value === 0n : value >= 0n) throw new Error('model satisfies the negated constraint');
      }
    }),
    { numRuns: 100 },
  );
  t.pass();
});

test('overrides: pinned values and per-unknown widths change only those unknowns', (t) => {
  fc.assert(
    fc.property(systemArb, fc.integer({ min: 0, max: 4 }), fc.bigInt(-3n, 3n), ({ system, widths }, width, value) => {
      const [first, second] = system.unknowns;
      const overrides = new Map<string, UnknownOverride>([[first!.name, { width }]]);
      if (second !== undefined) overrides.set(second.name, { value: second.nonNegative && value < 0n ? -value : value });
      const encoded = encodeSystem(system, widths, { overrides });
      const assignments = allAssignments(system.unknowns, widths, overrides);
      const solutions = assignments.filter((a) => holds(system, a));
      checkEveryAssignment(encoded.cnf, (n) => encoded.encoder.vector(n), assignments, (a) => holds(system, a));
      const model = solveCnf(encoded.cnf);
      if ((model !== null) !== (solutions.length > 0)) throw new Error(`SAT=${model !== null} but ${solutions.length} solutions`);
      if (model !== null) {
        const values = encoded.decode(model);
        if (!holds(system, values)) throw new Error('model does not satisfy the system');
        if (second !== undefined && values.get(second.name) !== overrides.get(second.name)!.value) throw new Error('pinned value not kept');
        const [lo, hi] = rangeOf(first!, widths, overrides.get(first!.name));
        const v = values.get(first!.name)!;
        if (v < lo || v > hi) throw new Error(`${first!.name} = ${v} outside overridden range [${lo}, ${hi}]`);
      }
    }),
    { numRuns: 60 },
  );
  t.pass();
});

test('a constraint that is false on its range makes the CNF unsatisfiable without search', (t) => {
  const unknowns: Unknown[] = [{ name: 'l', kind: 'multiplier', nonNegative: true }];
  const system: ConstraintSystem = {
    unknowns,
    constraints: [{ poly: polyFromTerms([{ vars: ['l'], coeff: 1n }, { vars: [], coeff: 1n }]), rel: '==' }],
  };
  const encoded = encodeSystem(system, { coefficient: 3, constant: 3, multiplier: 2 });
  t.true(encoded.encoder.builder.trivialUnsat);
  t.is(solveCnf(encoded.cnf), null);
});

test('encodeSystem accepts a builder to share, and structural hashing makes re-encoding free', (t) => {
  const unknowns: Unknown[] = [
    { name: 'a', kind: 'coefficient', nonNegative: false },
    { name: 'l', kind: 'multiplier', nonNegative: true },
  ];
  const c: PolyConstraint = { poly: polyFromTerms([{ vars: ['a', 'l'], coeff: 3n }, { vars: ['a'], coeff: -1n }, { vars: [], coeff: 2n }]), rel: '>=' };
  const builder = new CnfBuilder();
  const encoded = encodeSystem({ unknowns, constraints: [c] }, { coefficient: 4, constant: 4, multiplier: 2 }, builder);
  t.is(encoded.encoder.builder, builder);
  const lit = encoded.encoder.constraintLiteral(c);
  const before = [builder.numVars, builder.numClauses];
  t.is(encoded.encoder.constraintLiteral(c), lit);
  t.deepEqual([builder.numVars, builder.numClauses], before);
});

test('mistakes in the system are reported', (t) => {
  const unknowns: Unknown[] = [{ name: 'a', kind: 'coefficient', nonNegative: false }];
  const widths: Widths = { coefficient: 3, constant: 3, multiplier: 1 };
  const stray: PolyConstraint = { poly: polyFromTerms([{ vars: ['b'], coeff: 1n }]), rel: '>=' };
  t.throws(() => encodeSystem({ unknowns, constraints: [stray] }, widths), { message: /undeclared unknown 'b'/ });
  t.throws(() => encodeSystem({ unknowns, constraints: [] }, widths, { overrides: new Map([['z', { width: 2 }]]) }), {
    message: /override for undeclared unknown 'z'/,
  });
  t.throws(() => encodeSystem({ unknowns: [...unknowns, ...unknowns], constraints: [] }, widths), { message: /declared twice/ });
  t.throws(() => encodeSystem({ unknowns, constraints: [] }, { ...widths, coefficient: -2 }), { instanceOf: RangeError });
});

/** The first verification condition of the paper's Fig. 1 after Farkas (notes 004 §4), at the paper's start widths. */
function paperExample(): ConstraintSystem {
  const u = (name: string, kind: UnknownKind, nonNegative: boolean): Unknown => ({ name, kind, nonNegative });
  const unknowns = [
    ...['a1', 'a2', 'a4', 'a5'].map((n) => u(n, 'coefficient', false)),
    ...['a3', 'a6'].map((n) => u(n, 'constant', false)),
    u('l1', 'multiplier', true),
    u('l2', 'multiplier', true),
    u('l', 'multiplier', true),
  ];
  const T = (coeff: bigint, ...vars: string[]) => ({ vars, coeff });
  return {
    unknowns,
    constraints: [
      // y: a2·λ1 + a5·λ2 = 0
      { poly: polyFromTerms([T(1n, 'a2', 'l1'), T(1n, 'a5', 'l2')]), rel: '==' },
      // constant: (50a1 − a3 − 1)λ1 + (50a4 − a6 − 1)λ2 + λ = 0
      {
        poly: polyFromTerms([T(50n, 'a1', 'l1'), T(-1n, 'a3', 'l1'), T(-1n, 'l1'), T(50n, 'a4', 'l2'), T(-1n, 'a6', 'l2'), T(-1n, 'l2'), T(1n, 'l')]),
        rel: '==',
      },
      // λ > 0
      { poly: polyFromTerms([T(1n, 'l'), T(-1n)]), rel: '>=' },
    ],
  };
}

test('sample systems: sizes, and the paper example is solved exactly', (t) => {
  const system = paperExample();
  for (const widths of [
    { coefficient: 3, constant: 6, multiplier: 1 },
    { coefficient: 5, constant: 8, multiplier: 3 },
  ]) {
    const encoded = encodeSystem(system, widths);
    t.log(`paper VC, widths ${JSON.stringify(widths)}: ${encoded.stats.vars} vars, ${encoded.stats.clauses} clauses`);
    const model = solveCnf(encoded.cnf);
    t.truthy(model);
    const values = encoded.decode(model!);
    t.true(satisfies(system, (n) => values.get(n)!));
    t.true(values.get('l')! > 0n);
  }
});
