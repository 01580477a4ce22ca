import test from 'ava';
import { InputError } from '../diagnostics.js';
import { createBackend, ExternalBackend, MinisatBackend, shutdownZ3, Z3Backend } from './index.js';

test.after.always(async () => {
  await shutdownZ3();
});

test('createBackend knows minisat, z3 and dimacs:CMD', (t) => {
  t.true(createBackend('minisat') instanceof MinisatBackend);
  t.is(createBackend(' minisat ').name, 'minisat');
  t.true(createBackend('z3') instanceof Z3Backend);
  const external = createBackend(`dimacs:${process.execPath} --version`);
  t.true(external instanceof ExternalBackend);
  t.is(external.name, `dimacs:${process.execPath} --version`);
});

test('createBackend rejects unknown specs and missing commands with an InputError', (t) => {
  const unknown = t.throws(() => createBackend('glucose'), { instanceOf: InputError });
  t.regex(unknown!.message, /^error: unknown SAT back end 'glucose'; expected 'auto' \(default: the embedded MiniSat, raced .*'minisat' \(embedded only\), 'z3'/);
  t.throws(() => createBackend('dimacs:'), { instanceOf: InputError });
  t.throws(() => createBackend('dimacs:/nonexistent/solver'), { instanceOf: InputError });
});

test('createBackend passes the MiniSat heap size on', async (t) => {
  t.throws(() => createBackend('minisat', { minisatHeapBytes: 3 }), { instanceOf: RangeError });
  const small = createBackend('minisat', { minisatHeapBytes: 32 * 1024 * 1024 });
  t.is((await small.solve({ numVars: 2, clauses: [[1, 2], [-1], [-2]] })).status, 'unsat');
});
