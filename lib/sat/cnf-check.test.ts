import test from 'ava';
import {
  assertWellFormedCnf,
  checkedSat,
  firstFalsifiedClause,
  INVALID_MODEL_REASON,
  satisfies,
  trivialAnswer,
} from './cnf-check.js';

const cnf = { numVars: 3, clauses: [[1, -2], [2, 3], [-1, -3]] };

test('satisfies checks every clause and the model length', (t) => {
  t.true(satisfies(cnf, [false, true, true, false]));
  t.is(firstFalsifiedClause(cnf, [false, true, true, true]), 2);
  t.false(satisfies(cnf, [false, true, true, true]));
  t.false(satisfies(cnf, [false, true, false]), 'a model missing a variable is rejected');
});

test('checkedSat turns a wrong model into unknown', (t) => {
  const start = performance.now();
  t.is(checkedSat(cnf, [false, true, true, false], 'x', start).status, 'sat');
  const wrong = checkedSat(cnf, [false, false, false, false], 'x', start);
  t.is(wrong.status, 'unknown');
  t.is(wrong.reason, INVALID_MODEL_REASON);
  t.is(wrong.model, undefined);
});

test('trivialAnswer: empty clause is unsat, no clauses is sat, otherwise a solver is needed', (t) => {
  const start = performance.now();
  t.is(trivialAnswer({ numVars: 2, clauses: [[1], []] }, 'x', start)?.status, 'unsat');
  t.deepEqual(trivialAnswer({ numVars: 2, clauses: [] }, 'x', start)?.model, [false, false, false]);
  t.deepEqual(trivialAnswer({ numVars: 0, clauses: [] }, 'x', start)?.model, [false]);
  t.is(trivialAnswer(cnf, 'x', start), null);
});

test('assertWellFormedCnf rejects literals outside the declared variables', (t) => {
  t.notThrows(() => assertWellFormedCnf(cnf));
  t.throws(() => assertWellFormedCnf({ numVars: 2, clauses: [[3]] }), { instanceOf: RangeError });
  t.throws(() => assertWellFormedCnf({ numVars: 2, clauses: [[0]] }), { instanceOf: RangeError });
  t.throws(() => assertWellFormedCnf({ numVars: 2, clauses: [[1.5]] }), { instanceOf: RangeError });
  t.throws(() => assertWellFormedCnf({ numVars: -1, clauses: [] }), { instanceOf: RangeError });
});
