import test from 'ava';
import fc from 'fast-check';
import {
  add,
  constantVec,
  decodeVec,
  eqZero,
  equal,
  geqZero,
  lessOrEqual,
  lessThan,
  mul,
  mulConst,
  neg,
  select,
  signedVar,
  signedWidth,
  sub,
  sum,
  unsignedVar,
  WeightedSum,
  type BitVec,
} from './bitvector.js';
import { CnfBuilder, type Lit } from './cnf-builder.js';
import { fixVector, solveCnf, unitPropagate } from './testing/test-solver.js';

// Inputs are fresh variables fixed by unit clauses (or constant vectors, to exercise constant
// propagation). Each result is checked twice: MiniSat must find a model in which it decodes to the
// bigint result, and unit propagation from the inputs alone must derive that same value — which
// shows the circuit forces it (no other model exists).

interface OperandSpec {
  readonly width: number;
  readonly unsigned: boolean;
  readonly constant: boolean;
  readonly value: bigint;
}

function rangeOf(width: number, unsigned: boolean): [bigint, bigint] {
  if (unsigned) return [0n, (1n << BigInt(width)) - 1n];
  const half = 1n << BigInt(width - 1);
  return [-half, half - 1n];
}

const operand = (maxWidth = 10): fc.Arbitrary<OperandSpec> =>
  fc
    .record({
      width: fc.integer({ min: 1, max: maxWidth }),
      unsigned: fc.boolean(),
      constant: fc.integer({ min: 0, max: 3 }).map((n) => n === 0), // a quarter are constant vectors
    })
    .chain((s) => {
      const [lo, hi] = rangeOf(s.width, s.unsigned);
      return fc.bigInt(lo, hi).map((value) => ({ ...s, value }));
    });

interface Input {
  readonly vec: BitVec;
  readonly value: bigint;
  readonly fixes: readonly Lit[];
}

function materialise(b: CnfBuilder, s: OperandSpec): Input {
  if (s.constant) return { vec: constantVec(b, s.value), value: s.value, fixes: [] };
  const vec = s.unsigned ? unsignedVar(b, s.width) : signedVar(b, s.width);
  return { vec, value: s.value, fixes: fixVector(vec, s.value) };
}

function fixesOf(inputs: readonly Input[]): Lit[] {
  return inputs.flatMap((i) => i.fixes);
}

function implied(values: readonly (boolean | undefined)[]): boolean[] {
  return values.map((v, i) => {
    if (i > 0 && v === undefined) throw new Error(`variable ${i} is not determined by the inputs`);
    return v ?? false;
  });
}

/** Throws (for fast-check) unless `result` is exactly `expected` under the fixed inputs. */
function expectValue(b: CnfBuilder, inputs: readonly Input[], result: BitVec, expected: bigint, label: string): void {
  if (expected < result.lo || expected > result.hi) throw new Error(`${label}: ${expected} outside claimed range [${result.lo}, ${result.hi}]`);
  if (result.bits.length !== signedWidth(result.lo, result.hi)) throw new Error(`${label}: width ${result.bits.length} is not tight`);
  const cnf = b.toCnf();
  const propagated = unitPropagate(cnf, fixesOf(inputs));
  if (propagated === null) throw new Error(`${label}: inputs conflict with the circuit`);
  const forced = decodeVec(b, result, implied(propagated));
  if (forced !== expected) throw new Error(`${label}: propagation gives ${forced}, expected ${expected}`);
  const model = solveCnf(cnf, fixesOf(inputs));
  if (model === null) throw new Error(`${label}: MiniSat says UNSAT`);
  const solved = decodeVec(b, result, model);
  if (solved !== expected) throw new Error(`${label}: MiniSat model gives ${solved}, expected ${expected}`);
}

function expectTruth(b: CnfBuilder, inputs: readonly Input[], lit: Lit, expected: boolean, label: string): void {
  const cnf = b.toCnf();
  const propagated = unitPropagate(cnf, fixesOf(inputs));
  if (propagated === null) throw new Error(`${label}: inputs conflict with the circuit`);
  if (b.value(implied(propagated), lit) !== expected) throw new Error(`${label}: propagation disagrees, expected ${expected}`);
  const model = solveCnf(cnf, fixesOf(inputs));
  if (model === null || b.value(model, lit) !== expected) throw new Error(`${label}: MiniSat disagrees, expected ${expected}`);
}

const runs = { numRuns: 60 };

test('add and sub are exact for all widths 1..10 and signedness', (t) => {
  fc.assert(
    fc.property(operand(), operand(), (sx, sy) => {
      const b = new CnfBuilder();
      const x = materialise(b, sx);
      const y = materialise(b, sy);
      expectValue(b, [x, y], add(b, x.vec, y.vec), sx.value + sy.value, 'add');
      expectValue(b, [x, y], sub(b, x.vec, y.vec), sx.value - sy.value, 'sub');
    }),
    runs,
  );
  t.pass();
});

test('neg is exact, including the most negative value', (t) => {
  fc.assert(
    fc.property(operand(), (sx) => {
      const b = new CnfBuilder();
      const x = materialise(b, sx);
      expectValue(b, [x], neg(b, x.vec), -sx.value, 'neg');
    }),
    runs,
  );
  t.pass();
});

test('mul is exact for all widths 1..10 and signedness', (t) => {
  fc.assert(
    fc.property(operand(), operand(), (sx, sy) => {
      const b = new CnfBuilder();
      const x = materialise(b, sx);
      const y = materialise(b, sy);
      expectValue(b, [x, y], mul(b, x.vec, y.vec), sx.value * sy.value, 'mul');
    }),
    runs,
  );
  t.pass();
});

test('a vector times itself is exact and its range is non-negative', (t) => {
  fc.assert(
    fc.property(operand(8), (sx) => {
      const b = new CnfBuilder();
      const x = materialise(b, { ...sx, constant: false });
      const square = mul(b, x.vec, x.vec);
      if (square.lo < 0n) throw new Error('square with a negative lower bound');
      expectValue(b, [x], square, sx.value * sx.value, 'square');
    }),
    runs,
  );
  t.pass();
});

const constants = fc.oneof(
  fc.bigInt(-1000n, 1000n),
  fc.constantFrom(0n, 1n, -1n, 2n, -2n, 64n, -64n, 3n, -3n, 7n, 255n, -256n),
);

test('multiplication by a constant is exact', (t) => {
  fc.assert(
    fc.property(operand(), constants, (sx, c) => {
      const b = new CnfBuilder();
      const x = materialise(b, sx);
      expectValue(b, [x], mulConst(b, x.vec, c), sx.value * c, `mulConst ${c}`);
      expectValue(b, [x], mul(b, x.vec, constantVec(b, c)), sx.value * c, `mul by constant vector ${c}`);
    }),
    runs,
  );
  t.pass();
});

test('sum of many terms is exact', (t) => {
  fc.assert(
    fc.property(fc.array(operand(), { minLength: 0, maxLength: 7 }), (specs) => {
      const b = new CnfBuilder();
      const xs = specs.map((s) => materialise(b, s));
      const expected = specs.reduce((acc, s) => acc + s.value, 0n);
      expectValue(b, xs, sum(b, xs.map((x) => x.vec)), expected, 'sum');
    }),
    runs,
  );
  t.pass();
});

test('weighted sums of scaled vectors, products and a constant are exact', (t) => {
  const term = fc.record({ x: operand(6), y: fc.option(operand(6), { nil: undefined }), c: fc.bigInt(-20n, 20n) });
  fc.assert(
    fc.property(fc.array(term, { minLength: 1, maxLength: 5 }), fc.bigInt(-100n, 100n), (terms, k) => {
      const b = new CnfBuilder();
      const s = new WeightedSum(b).addConstant(k);
      const inputs: Input[] = [];
      let expected = k;
      for (const { x: sx, y: sy, c } of terms) {
        const x = materialise(b, sx);
        inputs.push(x);
        if (sy === undefined) {
          s.addScaled(x.vec, c);
          expected += c * sx.value;
        } else {
          const y = materialise(b, sy);
          inputs.push(y);
          s.addProduct(x.vec, y.vec, c);
          expected += c * sx.value * sy.value;
        }
      }
      expectValue(b, inputs, s.toVec(), expected, 'weighted sum');
    }),
    runs,
  );
  t.pass();
});

test('results of operations compose exactly (ranges narrower than their widths)', (t) => {
  fc.assert(
    fc.property(operand(7), operand(7), operand(7), (sx, sy, sz) => {
      const b = new CnfBuilder();
      const [x, y, z] = [materialise(b, sx), materialise(b, sy), materialise(b, sz)];
      const left = add(b, x.vec, y.vec);
      const right = sub(b, z.vec, x.vec);
      const expected = (sx.value + sy.value) * (sz.value - sx.value);
      expectValue(b, [x, y, z], mul(b, left, right), expected, '(x+y)*(z-x)');
      expectValue(b, [x, y, z], neg(b, mul(b, neg(b, left), y.vec)), (sx.value + sy.value) * sy.value, '-(-(x+y)*y)');
    }),
    runs,
  );
  t.pass();
});

test('comparisons agree with bigint', (t) => {
  fc.assert(
    fc.property(operand(), operand(), fc.boolean(), (sx, sy, sameValue) => {
      const b = new CnfBuilder();
      // Half of the time compare equal values, so that equality is often true.
      const ySpec = sameValue && sx.value >= rangeOf(sy.width, sy.unsigned)[0] && sx.value <= rangeOf(sy.width, sy.unsigned)[1] ? { ...sy, value: sx.value } : sy;
      const x = materialise(b, sx);
      const y = materialise(b, ySpec);
      const [vx, vy] = [sx.value, ySpec.value];
      expectTruth(b, [x, y], eqZero(b, x.vec), vx === 0n, 'eqZero');
      expectTruth(b, [x, y], geqZero(b, x.vec), vx >= 0n, 'geqZero');
      expectTruth(b, [x, y], equal(b, x.vec, y.vec), vx === vy, 'equal');
      expectTruth(b, [x, y], lessThan(b, x.vec, y.vec), vx < vy, 'lessThan');
      expectTruth(b, [x, y], lessOrEqual(b, x.vec, y.vec), vx <= vy, 'lessOrEqual');
    }),
    runs,
  );
  t.pass();
});

test('select picks the right operand', (t) => {
  fc.assert(
    fc.property(operand(), operand(), fc.boolean(), (sx, sy, choice) => {
      const b = new CnfBuilder();
      const x = materialise(b, sx);
      const y = materialise(b, sy);
      const c = b.newVar();
      const chooser: Input = { vec: constantVec(b, 0n), value: 0n, fixes: [choice ? c : -c] };
      expectValue(b, [x, y, chooser], select(b, c, x.vec, y.vec), choice ? sx.value : sy.value, 'select');
    }),
    runs,
  );
  t.pass();
});

test('exhaustive small widths: every input pair, including the most negative values', (t) => {
  // One circuit per width/signedness pair, evaluated by unit propagation on every input pair.
  let checked = 0;
  for (let wx = 1; wx <= 3; wx++) {
    for (let wy = 1; wy <= 3; wy++) {
      for (const [ux, uy] of [[false, false], [true, false], [false, true], [true, true]] as const) {
        const b = new CnfBuilder();
        const x = ux ? unsignedVar(b, wx) : signedVar(b, wx);
        const y = uy ? unsignedVar(b, wy) : signedVar(b, wy);
        const circuits: Array<[BitVec, (a: bigint, c: bigint) => bigint]> = [
          [add(b, x, y), (a, c) => a + c],
          [sub(b, x, y), (a, c) => a - c],
          [neg(b, x), (a) => -a],
          [mul(b, x, y), (a, c) => a * c],
          [mulConst(b, x, -3n), (a) => -3n * a],
        ];
        const lits: Array<[Lit, (a: bigint, c: bigint) => boolean]> = [
          [lessThan(b, x, y), (a, c) => a < c],
          [equal(b, x, y), (a, c) => a === c],
          [eqZero(b, x), (a) => a === 0n],
        ];
        const cnf = b.toCnf();
        for (let vx = x.lo; vx <= x.hi; vx++) {
          for (let vy = y.lo; vy <= y.hi; vy++) {
            const propagated = unitPropagate(cnf, [...fixVector(x, vx), ...fixVector(y, vy)]);
            if (propagated === null) return t.fail(`conflict at x=${vx} y=${vy}`);
            const model = implied(propagated);
            for (const [vec, f] of circuits) t.is(decodeVec(b, vec, model), f(vx, vy));
            for (const [lit, f] of lits) t.is(b.value(model, lit), f(vx, vy));
            checked++;
          }
        }
      }
    }
  }
  t.true(checked > 100);
});

test('a 1-bit non-negative multiplier times a w-bit operand costs at most w AND gates', (t) => {
  for (let w = 1; w <= 10; w++) {
    for (const unsigned of [false, true]) {
      const b = new CnfBuilder();
      const lambda = unsignedVar(b, 1);
      const a = unsigned ? unsignedVar(b, w) : signedVar(b, w);
      const [vars, clauses] = [b.numVars, b.numClauses];
      const product = mul(b, lambda, a);
      t.true(b.numVars - vars <= w, `w=${w}: ${b.numVars - vars} new variables`);
      t.true(b.numClauses - clauses <= 3 * w, `w=${w}: ${b.numClauses - clauses} new clauses`);
      // Same cost with the factors swapped, and the product is still exact.
      const swapped = mul(b, a, lambda);
      t.true(b.numVars - vars <= w);
      for (const [l, v] of [[1n, a.lo], [1n, a.hi], [0n, a.hi], [1n, 0n]] as const) {
        const propagated = unitPropagate(b.toCnf(), [...fixVector(lambda, l), ...fixVector(a, v)]);
        t.truthy(propagated);
        t.is(decodeVec(b, product, implied(propagated!)), l * v);
        t.is(decodeVec(b, swapped, implied(propagated!)), l * v);
      }
    }
  }
});

test('multiplication by 0, ±1 and powers of two adds no clauses; -x adds only its negation', (t) => {
  const b = new CnfBuilder();
  const x = signedVar(b, 6);
  const before = [b.numVars, b.numClauses];
  t.deepEqual(mulConst(b, x, 0n).bits, [b.FALSE]);
  t.deepEqual(mulConst(b, x, 1n).bits, x.bits);
  const shifted = mulConst(b, x, 8n);
  t.deepEqual(shifted.bits, [b.FALSE, b.FALSE, b.FALSE, ...x.bits]);
  t.deepEqual([b.numVars, b.numClauses], before);
  const unsigned = unsignedVar(b, 4);
  const after = [b.numVars, b.numClauses];
  t.deepEqual(mulConst(b, unsigned, 1n), unsigned);
  t.deepEqual(mul(b, unsigned, constantVec(b, 4n)).bits, [b.FALSE, b.FALSE, ...unsigned.bits]);
  t.deepEqual([b.numVars, b.numClauses], after);
});

test('range shortcuts: comparisons decided by ranges build nothing', (t) => {
  const b = new CnfBuilder();
  const u = unsignedVar(b, 4);
  const before = b.numClauses;
  t.is(geqZero(b, u), b.TRUE);
  t.is(eqZero(b, add(b, u, constantVec(b, 1n))), b.FALSE);
  t.is(lessThan(b, u, constantVec(b, 0n)), b.FALSE);
  t.is(equal(b, u, constantVec(b, -1n)), b.FALSE);
  t.is(eqZero(b, mul(b, u, constantVec(b, 0n))), b.TRUE);
  // u + 1 needed an adder; the comparisons themselves added nothing beyond it.
  t.true(b.numClauses > before);
  const afterAdder = b.numClauses;
  t.is(eqZero(b, add(b, u, constantVec(b, 1n))), b.FALSE);
  t.is(b.numClauses, afterAdder);
});

test('structural hashing: building the same expression twice adds no clauses', (t) => {
  const b = new CnfBuilder();
  const x = signedVar(b, 5);
  const y = unsignedVar(b, 3);
  const z = signedVar(b, 4);
  const build = () => sub(b, mul(b, add(b, x, z), y), mulConst(b, z, 5n));
  const first = build();
  const [vars, clauses] = [b.numVars, b.numClauses];
  const second = build();
  t.deepEqual(second, first);
  t.deepEqual([b.numVars, b.numClauses], [vars, clauses]);
  // A commuted product is the same circuit.
  const product = mul(b, x, y);
  const afterProduct = [b.numVars, b.numClauses];
  t.deepEqual(mul(b, y, x), product);
  t.deepEqual([b.numVars, b.numClauses], afterProduct);
  t.deepEqual(new WeightedSum(b).addProduct(x, y).toVec(), product);
});

test('widths: tight signed width of ranges', (t) => {
  t.is(signedWidth(0n, 0n), 1);
  t.is(signedWidth(-1n, 0n), 1);
  t.is(signedWidth(0n, 1n), 2);
  t.is(signedWidth(-8n, 7n), 4);
  t.is(signedWidth(-9n, 7n), 5);
  t.is(signedWidth(-8n, 8n), 5);
  t.is(signedWidth(-(1n << 100n), 3n), 101);
  t.throws(() => signedWidth(1n, 0n), { instanceOf: RangeError });
  t.throws(() => signedVar(new CnfBuilder(), -1), { instanceOf: RangeError });
  t.deepEqual(signedVar(new CnfBuilder(), 0).bits, [-1]);
});
