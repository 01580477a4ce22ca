import test from 'ava';
import fc from 'fast-check';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { satisfies } from './cnf-check.js';
import { pigeonhole, bruteForceSatisfiable, smallCnf } from './testing/instances.js';
import { Z3Backend, Z3_SHUT_DOWN_REASON } from './z3-backend.js';
import { getZ3, shutdownZ3 } from './z3-context.js';

const z3 = new Z3Backend();

test.after.always(async () => {
  await shutdownZ3();
});

test('small random CNFs: z3 agrees with brute force and its models satisfy the CNF', async (t) => {
  await fc.assert(
    fc.asyncProperty(smallCnf(), async (cnf) => {
      const result = await z3.solve(cnf);
      t.is(result.status, bruteForceSatisfiable(cnf) ? 'sat' : 'unsat');
      if (result.status === 'sat') t.true(satisfies(cnf, result.model!));
    }),
    { numRuns: 40 },
  );
});

test('a conflict budget makes z3 answer unknown with the reason, the same count every time', async (t) => {
  const hard = pigeonhole(8, 7);
  const full = await z3.solve(hard);
  t.is(full.status, 'unsat');
  const limited = await z3.solve(hard, { conflicts: 100 });
  t.is(limited.status, 'unknown');
  t.is(limited.reason, 'conflict limit reached (100 conflicts)');
  t.is((await z3.solve(hard, { conflicts: 100 })).conflicts, limited.conflicts);
  t.is((await z3.solve(hard, { conflicts: 0 })).reason, 'conflict limit reached (0 conflicts)');
  t.is((await z3.solve(hard)).status, 'unsat'); // the limit was the one solver's, not the context's
});

test('pigeonhole 6 into 5 is unsat; variables z3 never mentions get a value', async (t) => {
  t.is((await z3.solve(pigeonhole(6, 5))).status, 'unsat');
  const result = await z3.solve({ numVars: 6, clauses: [[2, -5], [-2]] });
  t.is(result.status, 'sat');
  t.is(result.backend, 'z3');
  t.deepEqual(result.model, [false, false, false, false, false, false, false]);
});

test('big inputs go through z3’s in-memory file system, which is cleaned up', async (t) => {
  const viaFile = new Z3Backend({ stringInputLimit: 64 });
  const sat = pigeonhole(5, 5);
  const result = await viaFile.solve(sat);
  t.is(result.status, 'sat');
  t.true(satisfies(sat, result.model!));
  t.is((await viaFile.solve(pigeonhole(6, 5))).status, 'unsat');
  const { em } = await getZ3();
  t.deepEqual(
    (em.FS.readdir('/') as string[]).filter((name) => name.startsWith('farkas-sat')),
    [],
  );
});

test('a hard instance times out as unknown; cancellation works; the back end keeps working', async (t) => {
  const started = performance.now();
  const timedOut = await z3.solve(pigeonhole(11, 10), { timeLimitMs: 300 });
  t.deepEqual([timedOut.status, timedOut.reason], ['unknown', 'timeout after 300 ms']);
  t.true(performance.now() - started < 10_000);

  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const cancelled = await z3.solve(pigeonhole(11, 10), { signal: controller.signal });
  t.deepEqual([cancelled.status, cancelled.reason], ['unknown', 'cancelled']);

  t.is((await z3.solve(pigeonhole(4, 3))).status, 'unsat');
});

test('after shutdownZ3 a process that used z3 exits by itself', async (t) => {
  const child = fileURLToPath(new URL('./testing/z3-exit-child.js', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [child], { timeout: 60_000 });
  t.is(stdout, `RESULT sat unknown (${Z3_SHUT_DOWN_REASON})\n`);
});
