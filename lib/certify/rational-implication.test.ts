// The rational test may only ever say "implied" when the integers agree; z3 is the referee.
import test from 'ava';
import * as F from '../ir/formula.js';
import * as L from '../ir/linear.js';
import { implies } from './lia.js';
import { equivalentOverRationals, impliedOverRationals } from './rational-implication.js';
import { mulberry32 } from '../random.js';

const vars = ['x', 'y', 'z'];

function randomAtom(next: () => number): F.Formula {
  const pick = () => BigInt(Math.floor(next() * 5) - 2);
  const expr = L.fromTerms(vars.map((v) => [v, pick()] as [string, bigint]), BigInt(Math.floor(next() * 9) - 4));
  return F.compare(expr, next() < 0.2 ? '==' : '>=', L.constant(0));
}

test('every implication the rational test finds is an implication over the integers (z3)', async (t) => {
  const next = mulberry32(11);
  let found = 0;
  for (let i = 0; i < 150; i++) {
    const atoms = Array.from({ length: 1 + Math.floor(next() * 4) }, () => randomAtom(next));
    const atom = next() < 0.5 ? randomAtom(next) : atoms[0]!;
    if (atoms.concat(atom).some((a) => a.kind !== 'atom')) continue;
    if (!impliedOverRationals(atoms, atom)) continue;
    found++;
    t.is((await implies(F.and(...atoms), atom)).status, 'valid', `${atoms.map((a) => F.toC(a)).join(' && ')} => ${F.toC(atom)}`);
  }
  t.true(found > 20, `only ${found} implications found`);
});

test('equivalence: restated conjuncts are recognised, a shifted bound is not', (t) => {
  const x = L.variable('x');
  const y = L.variable('y');
  const relation = F.and(F.compare(x, '>=', L.constant(0)), F.compare(y, '>=', x));
  const restated = F.and(F.compare(x, '>=', L.constant(0)), F.compare(y, '>=', x), F.compare(y, '>=', L.constant(0)));
  t.true(equivalentOverRationals(relation, restated));
  t.false(equivalentOverRationals(relation, F.and(F.compare(x, '>=', L.constant(1)), F.compare(y, '>=', x))));
  t.false(equivalentOverRationals(relation, F.or(F.compare(x, '>=', L.constant(0)), F.compare(y, '>=', x))));
});
