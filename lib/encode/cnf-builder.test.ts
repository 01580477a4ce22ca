import test from 'ava';
import { CnfBuilder, type Lit } from './cnf-builder.js';
import { allModels, solveCnf } from './testing/test-solver.js';

type GateName = 'and' | 'or' | 'xor' | 'iff' | 'implies' | 'ite' | 'xor3' | 'maj' | 'andN' | 'orN';

const reference: Record<GateName, (v: boolean[]) => boolean> = {
  and: ([a, b]) => a! && b!,
  or: ([a, b]) => a! || b!,
  xor: ([a, b]) => a !== b,
  iff: ([a, b]) => a === b,
  implies: ([a, b]) => !a || b!,
  ite: ([c, t, e]) => (c ? t! : e!),
  xor3: ([a, b, c]) => (a !== b) !== c,
  maj: ([a, b, c]) => (a && b) || (a && c) || (b && c) || false,
  andN: (v) => v.every((x) => x),
  orN: (v) => v.some((x) => x),
};

const arity: Record<GateName, number> = { and: 2, or: 2, xor: 2, iff: 2, implies: 2, ite: 3, xor3: 3, maj: 3, andN: 4, orN: 4 };

function build(b: CnfBuilder, gate: GateName, ins: Lit[]): Lit {
  switch (gate) {
    case 'and': return b.and(ins[0]!, ins[1]!);
    case 'or': return b.or(ins[0]!, ins[1]!);
    case 'xor': return b.xor(ins[0]!, ins[1]!);
    case 'iff': return b.iff(ins[0]!, ins[1]!);
    case 'implies': return b.implies(ins[0]!, ins[1]!);
    case 'ite': return b.ite(ins[0]!, ins[1]!, ins[2]!);
    case 'xor3': return b.xor3(ins[0]!, ins[1]!, ins[2]!);
    case 'maj': return b.maj(ins[0]!, ins[1]!, ins[2]!);
    case 'andN': return b.andN(ins);
    case 'orN': return b.orN(ins);
  }
}

// Each gate input is one of: a free variable (positive or negated), a constant, or a repeat
// (possibly negated) of an earlier input — this drives every constant-propagation and
// repeated-input shortcut as well as the general Tseitin clauses.
type InputShape = { kind: 'var'; negated: boolean } | { kind: 'const'; value: boolean } | { kind: 'repeat'; of: number; negated: boolean };

function shapes(n: number): InputShape[][] {
  const options = (i: number): InputShape[] => {
    const opts: InputShape[] = [
      { kind: 'var', negated: false },
      { kind: 'var', negated: true },
      { kind: 'const', value: true },
      { kind: 'const', value: false },
    ];
    for (let j = 0; j < i; j++) opts.push({ kind: 'repeat', of: j, negated: false }, { kind: 'repeat', of: j, negated: true });
    return opts;
  };
  let acc: InputShape[][] = [[]];
  for (let i = 0; i < n; i++) acc = acc.flatMap((prefix) => options(i).map((o) => [...prefix, o]));
  return acc;
}

for (const gate of Object.keys(reference) as GateName[]) {
  test(`${gate}: every model gives the output its truth-table value, for every input shape`, (t) => {
    const n = arity[gate];
    // Four-input gates: only variables and constants (repeats are covered by the smaller gates).
    const allShapes = n > 3 ? shapes(n).filter((s) => s.every((x) => x.kind !== 'repeat')) : shapes(n);
    let checked = 0;
    for (const shape of allShapes) {
      const b = new CnfBuilder();
      const ins: Lit[] = [];
      const freeVars: Lit[] = [];
      for (const s of shape) {
        if (s.kind === 'var') {
          const v = b.newVar();
          freeVars.push(v);
          ins.push(s.negated ? -v : v);
        } else if (s.kind === 'const') ins.push(s.value ? b.TRUE : b.FALSE);
        else ins.push(s.negated ? -ins[s.of]! : ins[s.of]!);
      }
      const out = build(b, gate, ins);
      // Enumerating every model checks both directions of the Tseitin encoding: each input
      // assignment extends to some model, and in every model the output has the gate's value.
      const models = allModels(b.toCnf());
      for (let mask = 0; mask < 1 << freeVars.length; mask++) {
        const matching = models.filter((m) => freeVars.every((v, i) => m[v] === (((mask >> i) & 1) === 1)));
        t.true(matching.length > 0, `${gate} ${JSON.stringify(shape)}: input assignment ${mask} has no model`);
        for (const model of matching) {
          const values = ins.map((l) => b.value(model, l));
          t.is(b.value(model, out), reference[gate](values), `${gate} ${JSON.stringify(shape)} on ${values}`);
        }
        checked++;
      }
    }
    t.true(checked > 0);
  });
}

test('constants are literals 1 and -1 and need no model', (t) => {
  const b = new CnfBuilder();
  t.is(b.TRUE, 1);
  t.is(b.FALSE, -1);
  t.true(b.value([], b.TRUE));
  t.false(b.value([], b.FALSE));
  t.deepEqual(b.toCnf(), { numVars: 1, clauses: [[1]] });
});

test('structural hashing: commuted and repeated gates reuse their literal and add no clauses', (t) => {
  const b = new CnfBuilder();
  const [x, y, z] = [b.newVar(), b.newVar(), b.newVar()];
  const and = b.and(x, -y);
  const xor = b.xor(x, y);
  const xor3 = b.xor3(x, y, z);
  const maj = b.maj(x, -y, z);
  const ite = b.ite(x, y, z);
  const fa = b.fullAdder(x, y, z);
  const before = [b.numVars, b.numClauses];
  t.is(b.and(-y, x), and);
  t.is(b.or(y, -x), -and);
  t.is(b.xor(y, x), xor);
  t.is(b.xor(-y, x), -xor);
  t.is(b.iff(x, y), -xor);
  t.is(b.xor3(z, x, y), xor3);
  t.is(b.xor3(-z, x, y), -xor3);
  t.is(b.maj(z, x, -y), maj);
  t.is(b.maj(-z, -x, y), -maj);
  t.is(b.ite(-x, z, y), ite);
  t.is(b.ite(x, -y, -z), -ite);
  t.deepEqual(b.fullAdder(z, y, x), fa);
  t.deepEqual([b.numVars, b.numClauses], before);
});

test('constant propagation creates no gate', (t) => {
  const b = new CnfBuilder();
  const x = b.newVar();
  const before = [b.numVars, b.numClauses];
  t.is(b.and(x, b.TRUE), x);
  t.is(b.and(x, b.FALSE), b.FALSE);
  t.is(b.and(x, -x), b.FALSE);
  t.is(b.or(x, -x), b.TRUE);
  t.is(b.xor(x, b.TRUE), -x);
  t.is(b.xor(x, x), b.FALSE);
  t.is(b.xor3(x, b.TRUE, b.TRUE), x);
  t.is(b.maj(x, x, b.FALSE), x);
  t.is(b.ite(b.TRUE, x, b.FALSE), x);
  t.is(b.andN([]), b.TRUE);
  t.is(b.orN([]), b.FALSE);
  t.deepEqual([b.numVars, b.numClauses], before);
});

test('clauses are simplified: tautologies dropped, a false clause makes the formula unsatisfiable', (t) => {
  const b = new CnfBuilder();
  const x = b.newVar();
  b.addClause([x, -x]);
  b.addClause([b.TRUE, x]);
  t.is(b.numClauses, 1);
  b.addClause([x, b.FALSE, x]);
  t.deepEqual(b.toCnf().clauses.at(-1), [x]);
  t.false(b.trivialUnsat);
  b.assertLit(b.FALSE);
  t.true(b.trivialUnsat);
  t.is(solveCnf(b.toCnf()), null);
});

test('rejects literals that are not variables of the builder', (t) => {
  const b = new CnfBuilder();
  t.throws(() => b.and(0, 1), { instanceOf: RangeError });
  t.throws(() => b.addClause([5]), { instanceOf: RangeError });
  t.throws(() => b.xor(1.5, 1), { instanceOf: RangeError });
});
