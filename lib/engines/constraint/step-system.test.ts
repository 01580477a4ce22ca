// A step's system with the hull equalities as facts: the variables they fix get no coefficients.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseProgram } from '../../frontend/index.js';
import * as F from '../../ir/formula.js';
import * as L from '../../ir/linear.js';
import { Problem } from '../../problem/prepare.js';
import { stepSystem } from './step-system.js';
import { fixedVariables } from '../../observe/equalities.js';

const step = { shape: { disjuncts: 1, conjuncts: 2 }, widths: { coefficient: 3, constant: 8, multiplier: 1 } };

test('a variable a fact fixes is left out of the template, and every product with its coefficient', (t) => {
  const program = parseProgram(readFileSync(new URL('../../../../benchmarks/literature/conserved-sum.c', import.meta.url), 'utf8'), 'conserved-sum.c');
  const prepared = Problem.of(program, 'main').analysis('headers');
  const header = prepared.unknownCutpoints[0]!;
  t.deepEqual(prepared.unknownCutpoints.length, 1);
  t.deepEqual([...prepared.variables.get(header)!].sort(), ['n', 'x', 'y']);
  // x + y == n, the tokens' conservation, fixes y once x and n are known.
  const facts = new Map([[header, F.eqZero(L.fromTerms([['x', 1n], ['y', 1n], ['n', -1n]]))]]);
  const full = stepSystem(prepared, step, { facts });
  const reduced = stepSystem(prepared, step, { facts, fixed: new Map([[header, fixedVariables([facts.get(header)!], ['n', 'x', 'y'])]]) });
  t.deepEqual(reduced.templates.get(header)!.variables, ['n', 'x']);
  t.deepEqual(full.templates.get(header)!.variables, ['n', 'x', 'y']);
  const coefficients = (s: typeof full) => s.system.unknowns.filter((u) => u.kind === 'coefficient').map((u) => u.name);
  t.deepEqual(coefficients(reduced), coefficients(full).filter((name) => !name.endsWith('.y')));
  t.true(coefficients(full).some((name) => name.endsWith('.y')));
  // Fewer bilinear products: every product with a y coefficient is gone.
  const products = (s: typeof full) => s.system.constraints.reduce((n, c) => n + [...c.poly.terms.values()].filter((term) => term.vars.length === 2).length, 0);
  t.true(products(reduced) < products(full), `${products(reduced)} < ${products(full)}`);
});
