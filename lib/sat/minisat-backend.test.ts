import test from 'ava';
import fc from 'fast-check';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { satisfies } from './cnf-check.js';
import { flattenClauses, MinisatBackend, OUT_OF_MEMORY_REASON } from './minisat-backend.js';
import { bruteForceSatisfiable, pigeonhole, seededRandom3Cnf, smallCnf } from './testing/instances.js';

const minisat = new MinisatBackend();
const MiB = 1024 * 1024;

test('small random CNFs: MiniSat agrees with brute force and its models satisfy the CNF', async (t) => {
  await fc.assert(
    fc.asyncProperty(smallCnf(), async (cnf) => {
      const result = await minisat.solve(cnf);
      t.is(result.status, bruteForceSatisfiable(cnf) ? 'sat' : 'unsat');
      if (result.status === 'sat') t.true(satisfies(cnf, result.model!));
    }),
    { numRuns: 60 },
  );
});

test('pigeonhole 6 into 5 is unsat, 5 into 5 is sat', async (t) => {
  t.is((await minisat.solve(pigeonhole(6, 5))).status, 'unsat');
  const five = await minisat.solve(pigeonhole(5, 5));
  t.is(five.status, 'sat');
  t.is(five.backend, 'minisat');
  t.true(satisfies(pigeonhole(5, 5), five.model!));
});

test('unit clauses only, contradicting units, unused variables, no clauses, empty clause', async (t) => {
  t.deepEqual((await minisat.solve({ numVars: 3, clauses: [[1], [-2], [3]] })).model, [false, true, false, true]);
  t.is((await minisat.solve({ numVars: 1, clauses: [[1], [-1]] })).status, 'unsat');
  const unused = await minisat.solve({ numVars: 5, clauses: [[2]] });
  t.is(unused.model?.length, 6);
  t.true(unused.model![2]);
  t.deepEqual((await minisat.solve({ numVars: 2, clauses: [] })).model, [false, false, false]);
  t.is((await minisat.solve({ numVars: 2, clauses: [[1, 2], []] })).status, 'unsat');
});

test('concurrent solves each get their own answer', async (t) => {
  const instances = [pigeonhole(6, 5), pigeonhole(4, 4), { numVars: 2, clauses: [[1], [-2]] }, pigeonhole(3, 2)];
  const results = await Promise.all(instances.map((cnf) => minisat.solve(cnf)));
  t.deepEqual(
    results.map((r) => r.status),
    ['unsat', 'sat', 'sat', 'unsat'],
  );
  t.deepEqual(results[2]!.model, [false, true, false]);
});

test('a hard instance times out as unknown, and the back end keeps working', async (t) => {
  const started = performance.now();
  const result = await minisat.solve(pigeonhole(11, 10), { timeLimitMs: 300 });
  t.is(result.status, 'unknown');
  t.is(result.reason, 'timeout after 300 ms');
  t.true(performance.now() - started < 10_000, 'the solve is stopped, not waited for');
  t.is((await minisat.solve(pigeonhole(6, 5))).status, 'unsat');
});

test('an abort signal cancels a running solve', async (t) => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const result = await minisat.solve(pigeonhole(11, 10), { signal: controller.signal });
  t.deepEqual([result.status, result.reason], ['unknown', 'cancelled']);
  const early = await minisat.solve(pigeonhole(3, 3), { signal: AbortSignal.abort() });
  t.deepEqual([early.status, early.reason], ['unknown', 'cancelled']);
});

test('a full heap becomes unknown "SAT solver out of memory", and a new solve works', async (t) => {
  const tinyHeap = new MinisatBackend({ heapBytes: 16 * MiB });
  const result = await tinyHeap.solve(seededRandom3Cnf(100_000, 400_000, 1));
  t.is(result.status, 'unknown');
  t.is(result.reason, OUT_OF_MEMORY_REASON);
  t.is((await tinyHeap.solve(pigeonhole(4, 3))).status, 'unsat');
});

test("MiniSat's prints never reach stdout", async (t) => {
  const child = fileURLToPath(new URL('./testing/minisat-quiet-child.js', import.meta.url));
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [child], { timeout: 60_000 });
  t.is(stdout, `RESULT unknown ${OUT_OF_MEMORY_REASON} / sat\n`);
  t.notRegex(stderr, /MINISAT|Cannot enlarge/);
});

test('flattenClauses separates clauses with 0', (t) => {
  t.deepEqual([...flattenClauses({ numVars: 3, clauses: [[1, -2], [3], [-1, 2, 3]] })], [1, -2, 0, 3, 0, -1, 2, 3, 0]);
});

test('malformed CNFs and heap sizes are rejected', async (t) => {
  await t.throwsAsync(minisat.solve({ numVars: 2, clauses: [[1, 3]] }), { instanceOf: RangeError });
  t.throws(() => new MinisatBackend({ heapBytes: 20 * MiB }), { instanceOf: RangeError });
  t.throws(() => new MinisatBackend({ heapBytes: 4096 * MiB }), { instanceOf: RangeError });
});

test('the time inside the solver is reported apart from the call, which includes the worker start-up', async (t) => {
  // A heap size no other test uses: a fresh pool whose first worker is started by warmUp.
  const fresh = new MinisatBackend({ heapBytes: 48 * MiB });
  fresh.warmUp();
  for (const cnf of [pigeonhole(5, 5), pigeonhole(6, 5)]) {
    const result = await fresh.solve(cnf);
    t.not(result.status, 'unknown');
    t.is(typeof result.solverMillis, 'number');
    t.true(result.solverMillis! >= 0 && result.solverMillis! <= result.millis + 1);
  }
});

test('a conflict budget stops the search at exactly that many conflicts, and is told apart from unsat', async (t) => {
  const hard = pigeonhole(8, 7);
  const full = await minisat.solve(hard);
  t.is(full.status, 'unsat');
  t.true(full.conflicts! > 1000, `pigeonhole 8 into 7 took ${full.conflicts} conflicts`);
  const limited = await minisat.solve(hard, { conflicts: 500 });
  t.is(limited.status, 'unknown');
  t.is(limited.reason, 'conflict limit reached (500 conflicts)');
  // The counter read from the solver object is the one MiniSat checks (it stops at the first check
  // past the budget), and it is the same on every run.
  t.true(limited.conflicts! >= 500 && limited.conflicts! <= 501, `${limited.conflicts} conflicts`);
  t.is((await minisat.solve(hard, { conflicts: 500 })).conflicts, limited.conflicts);
  t.deepEqual(await minisat.solve(hard, { conflicts: full.conflicts! + 1 }).then((r) => [r.status, r.conflicts]), ['unsat', full.conflicts]);
  t.is((await minisat.solve(hard, { conflicts: 0 })).status, 'unknown');
  // A budget does not stay behind in the reused worker.
  t.is((await minisat.solve(pigeonhole(6, 5))).status, 'unsat');
  const easy = await minisat.solve(pigeonhole(5, 5), { conflicts: 1000 });
  t.is(easy.status, 'sat');
});

test('a propagation budget stops the search within one propagation round of it, the same on every run', async (t) => {
  const hard = pigeonhole(8, 7);
  const full = await minisat.solve(hard);
  t.true(full.propagations! > 20_000, `pigeonhole 8 into 7 took ${full.propagations} propagations`);
  const budget = 10_000;
  const limited = await minisat.solve(hard, { propagations: budget });
  t.is(limited.status, 'unknown');
  t.is(limited.reason, `propagation limit reached (${budget} propagations)`);
  // MiniSat checks the budget between propagation rounds; a round assigns at most every variable once.
  t.true(limited.propagations! >= budget && limited.propagations! <= budget + hard.numVars, `${limited.propagations} propagations`);
  t.true(limited.conflicts! < full.conflicts!);
  const again = await minisat.solve(hard, { propagations: budget });
  t.deepEqual([again.propagations, again.conflicts], [limited.propagations, limited.conflicts]);
  // With both budgets, the one that runs out first is named.
  t.is((await minisat.solve(hard, { propagations: budget, conflicts: 10 })).reason, 'conflict limit reached (10 conflicts)');
  t.deepEqual(await minisat.solve(hard, { propagations: full.propagations! + 1 }).then((r) => [r.status, r.propagations]), ['unsat', full.propagations]);
  // A budget does not stay behind in the reused worker.
  t.is((await minisat.solve(hard)).status, 'unsat');
});

test('a session solves a growing CNF: each answer agrees with brute force, and its model satisfies the whole CNF', async (t) => {
  await fc.assert(
    fc.asyncProperty(smallCnf(), fc.integer({ min: 1, max: 4 }), async (cnf, parts) => {
      const session = minisat.session();
      try {
        // The same clauses in `parts` growing prefixes, solved one after the other.
        for (let k = 1; k <= parts; k++) {
          const prefix = { numVars: cnf.numVars, clauses: cnf.clauses.slice(0, Math.ceil((cnf.clauses.length * k) / parts)) };
          const result = await session.solve(prefix);
          t.is(result.status, bruteForceSatisfiable(prefix) ? 'sat' : 'unsat');
          if (result.status === 'sat') t.true(satisfies(prefix, result.model!));
        }
      } finally {
        session.close();
      }
    }),
    { numRuns: 40 },
  );
});

test('a session after a timeout starts over on a new worker, with every clause', async (t) => {
  const session = minisat.session();
  try {
    t.is((await session.solve(pigeonhole(11, 10), { timeLimitMs: 50 })).status, 'unknown');
    // The worker that held the clauses is gone: the next solve is sent the whole CNF again.
    const hole = pigeonhole(6, 5);
    t.is((await session.solve(hole)).status, 'unsat');
    const grown = { numVars: 2, clauses: [[1, 2], [-1], [-2]] };
    const fresh = minisat.session();
    t.is((await fresh.solve({ numVars: 2, clauses: [[1, 2]] })).status, 'sat');
    t.is((await fresh.solve({ numVars: 2, clauses: [[1, 2], [-1]] })).model?.[2], true);
    t.is((await fresh.solve(grown)).status, 'unsat');
    fresh.close();
  } finally {
    session.close();
  }
});

test('a session counts the work and the budget of each solve on its own', async (t) => {
  const session = minisat.session();
  try {
    const hard = pigeonhole(9, 8);
    // (The conflict that ends a solve may be counted before the budget is looked at: 300 or 301.)
    const first = await session.solve(hard, { conflicts: 300 });
    t.is(first.status, 'unknown');
    t.true(first.conflicts === 300 || first.conflicts === 301, `${first.conflicts}`);
    // The same clauses again: a budget of 300 more conflicts, counted from where the first stopped.
    const second = await session.solve(hard, { conflicts: 300 });
    t.is(second.status, 'unknown');
    t.true(second.conflicts === 300 || second.conflicts === 301, `${second.conflicts}`);
    t.true(second.propagations! > 0);
  } finally {
    session.close();
  }
});
