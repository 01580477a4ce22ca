import test from 'ava';
import { makeTemplate } from '../constraints/template.js';
import { signedVar, unsignedVar } from './bitvector.js';
import { CnfBuilder } from './cnf-builder.js';
import { lexLeq, orderBits, orderTemplatePositions } from './symmetry.js';
import { encodeUnknowns } from './system-encoder.js';
import { fixVector, solveCnf } from './testing/test-solver.js';

test('lexLeq over offset-binary bits is the lexicographic order of the signed (and unsigned) values', (t) => {
  for (const make of [(b: CnfBuilder) => signedVar(b, 3), (b: CnfBuilder) => unsignedVar(b, 2)]) {
    const probe = make(new CnfBuilder());
    for (let a1 = probe.lo; a1 <= probe.hi; a1++) {
      for (let a2 = probe.lo; a2 <= probe.hi; a2 += 3n) {
        for (let b1 = probe.lo; b1 <= probe.hi; b1++) {
          for (let b2 = probe.lo; b2 <= probe.hi; b2 += 3n) {
            const b = new CnfBuilder();
            const [x1, x2, y1, y2] = [make(b), make(b), make(b), make(b)];
            b.assertLit(lexLeq(b, [...orderBits(x1), ...orderBits(x2)], [...orderBits(y1), ...orderBits(y2)]));
            const units = [...fixVector(x1, a1), ...fixVector(x2, a2), ...fixVector(y1, b1), ...fixVector(y2, b2)];
            const expected = a1 < b1 || (a1 === b1 && a2 <= b2);
            t.is(solveCnf(b.toCnf(), units) !== null, expected, `(${a1}, ${a2}) <= (${b1}, ${b2})`);
          }
        }
      }
    }
  }
});

test('template positions: conjuncts ordered within each disjunct, disjuncts by their conjuncts; a pinned position is left out', (t) => {
  const template = makeTemplate(1, ['x'], { disjuncts: 2, conjuncts: 2 });
  const unknowns = [...template.constant.flat(), ...template.coefficient.flat(2)].map((name) => ({ name, kind: name.endsWith('.const') ? 'constant' as const : 'coefficient' as const, nonNegative: false }));
  const widths = { coefficient: 3, constant: 3, multiplier: 1 };
  const encoder = encodeUnknowns(unknowns, widths);
  t.is(orderTemplatePositions(encoder, template), 3);
  const cnf = encoder.builder.toCnf();
  const fix = (d: number, c: number, constant: bigint, coefficient: bigint) => [
    ...fixVector(encoder.vector(template.constant[d]![c]!), constant),
    ...fixVector(encoder.vector(template.coefficient[d]![c]![0]!), coefficient),
  ];
  // (constant, coefficient) per conjunct: ordered within and between disjuncts.
  t.not(solveCnf(cnf, [...fix(0, 0, -1n, 2n), ...fix(0, 1, 0n, -3n), ...fix(1, 0, 0n, 1n), ...fix(1, 1, 2n, 0n)]), null);
  // The same invariant with the conjuncts of disjunct 0 swapped is excluded…
  t.is(solveCnf(cnf, [...fix(0, 0, 0n, -3n), ...fix(0, 1, -1n, 2n), ...fix(1, 0, 0n, 1n), ...fix(1, 1, 2n, 0n)]), null);
  // …and so is the one with the disjuncts swapped.
  t.is(solveCnf(cnf, [...fix(0, 0, 0n, 1n), ...fix(0, 1, 2n, 0n), ...fix(1, 0, -1n, 2n), ...fix(1, 1, 0n, -3n)]), null);
  // A pinned unknown takes its position out of the ordering.
  const pinned = encodeUnknowns(unknowns, widths, { overrides: new Map([[template.constant[0]![0]!, { value: 5n }]]) });
  t.is(orderTemplatePositions(pinned, template), 1);
});
