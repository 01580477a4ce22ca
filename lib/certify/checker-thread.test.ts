// The checker's z3 runs on a thread of its own (the WASM build) or as a process (native z3, when on
// PATH); a job's checks send only what is new since its last check. These tests pin what that must
// not change, for both: what a check sees, and how a process ends.
import test from 'ava';
import { spawn } from 'node:child_process';
import { shutdownZ3 } from '../sat/z3-context.js';
import { checkerInUse, checkerWarm, chooseChecker, resolveChecker, withLiaSolver } from './lia-solver.js';

test.after.always(async () => {
  await shutdownZ3();
});

const nativeZ3 = resolveChecker('auto').kind === 'native';
const kinds: readonly ('wasm' | 'native')[] = nativeZ3 ? ['wasm', 'native'] : ['wasm'];

/** Serial tests for each checker: the checker in use is switched (and the one before shut down). */
function serialForEach(title: string, body: (t: import('ava').ExecutionContext) => Promise<void>): void {
  for (const kind of kinds) {
    test.serial(`${kind}: ${title}`, async (t) => {
      if (checkerInUse().kind !== kind) {
        await shutdownZ3();
        chooseChecker(kind);
      }
      t.is(checkerInUse().kind, kind);
      await body(t);
    });
  }
}

serialForEach('a job sees every assertion made before each check, goals only in their own check, and the model of its last sat check', async (t) => {
  await withLiaSolver(async (solver) => {
    const x = solver.intSymbol();
    const y = solver.intSymbol();
    solver.assert(`(= ${y} (+ ${x} 1))`);
    t.is((await solver.check({}, `(> ${x} 5)`)).status, 'sat');
    t.true(solver.model().int(x) > 5n);
    t.is(solver.model().int(y), solver.model().int(x) + 1n);
    // Asserted after the first check: sent with the second.
    solver.assert(`(< ${y} 3)`);
    t.is((await solver.check({}, `(> ${x} 5)`)).status, 'unsat');
    t.throws(() => solver.model(), { message: /without a sat check/ });
    // The goal of the checks before is gone.
    const outcome = await solver.check();
    t.is(outcome.status, 'sat');
    t.true(solver.model().int(y) < 3n);
    const b = solver.boolSymbol();
    solver.assert(`(= ${b} (> ${x} 0))`);
    t.is((await solver.check({}, b)).status, 'sat');
    t.true(solver.model().bool(b));
    t.is(solver.model().int(y), 2n); // x = 1 is the only value with 0 < x and x + 1 < 3
  });
});

serialForEach('with preprocessing, the equalities solved away still have their values in the model, the answers are the same, and light quantifiers go', async (t) => {
  await withLiaSolver(async (solver) => {
    // A chain of copies and steps, as an unfolding asserts it: x0 = 3, x(k+1) = xk + 2, a free b.
    const xs = Array.from({ length: 6 }, () => solver.intSymbol());
    const b = solver.boolSymbol();
    solver.assert(`(= ${xs[0]} 3)`);
    for (let k = 0; k + 1 < xs.length; k++) solver.assert(`(= ${xs[k + 1]} (+ ${xs[k]} 2))`);
    solver.assert(`(=> ${b} (> ${xs[5]} 12))`);
    const outcome = await solver.check({ preprocess: true, work: 10_000_000 }, b);
    t.is(outcome.status, 'sat');
    t.true(outcome.work > 0);
    t.deepEqual(xs.map((x) => solver.model().int(x)), [3n, 5n, 7n, 9n, 11n, 13n]);
    t.true(solver.model().bool(b));
    t.is((await solver.check({ preprocess: true }, `(< ${xs[5]} 13)`)).status, 'unsat');
    t.is((await solver.check({}, `(< ${xs[5]} 13)`)).status, 'unsat');
  });
  // A clause whose head has an existential interpretation, negated: x > 0, and no y = x + 1 with y > 1.
  await withLiaSolver(async (solver) => {
    const x = solver.intSymbol();
    const term = `(and (> ${x} 0) (forall ((y Int)) (not (and (= y (+ ${x} 1)) (> y 1)))))`;
    t.is((await solver.check({ preprocess: true, work: 1_000_000 }, term)).status, 'unsat');
  });
});

serialForEach('a new job starts without the assertions of the one before', async (t) => {
  await withLiaSolver(async (solver) => {
    const x = solver.intSymbol();
    solver.assert(`(> ${x} 0)`);
    solver.assert(`(< ${x} 0)`);
    t.is((await solver.check()).status, 'unsat');
  });
  await withLiaSolver(async (solver) => {
    const x = solver.intSymbol(); // the same symbol name as in the job before
    t.is((await solver.check({}, `(= ${x} -4)`)).status, 'sat');
    t.is(solver.model().int(x), -4n);
  });
});

serialForEach('after shutdownZ3() the next job gets a fresh thread and real answers', async (t) => {
  await checkerWarm();
  await shutdownZ3();
  const status = await withLiaSolver(async (solver) => {
    const x = solver.intSymbol();
    return (await solver.check({}, `(> ${x} ${x})`)).status;
  });
  t.is(status, 'unsat');
});

serialForEach('a check past its time limit answers unknown (timeout), and its job goes on with a fresh thread', async (t) => {
  await withLiaSolver(async (solver) => {
    const x = solver.intSymbol();
    solver.assert(`(> ${x} 7)`);
    // Subset sum over 40 large weights: far more than 20 ms of z3's work.
    let seed = 12345n;
    const weights: bigint[] = [];
    const bits: string[] = [];
    for (let i = 0; i < 40; i++) {
      seed = (seed * 6364136223846793005n + 1442695040888963407n) % (1n << 64n);
      weights.push((seed >> 24n) % (1n << 36n));
      const b = solver.intSymbol();
      bits.push(b);
      solver.assert(`(and (>= ${b} 0) (<= ${b} 1))`);
    }
    const half = weights.reduce((sum, w) => sum + w, 0n) / 2n;
    const sum = `(+ ${bits.map((b, i) => `(* ${weights[i]} ${b})`).join(' ')})`;
    const hard = await solver.check({ timeLimitMs: 20 }, `(= ${sum} ${half})`);
    t.is(hard.status, 'unknown');
    t.regex(hard.reason ?? '', /^timeout after 20 ms$/);
    // The job's assertions reach the fresh thread: x > 7 still holds, the goal of the hard check not.
    t.is((await solver.check({}, `(< ${x} 9)`)).status, 'sat');
    t.is(solver.model().int(x), 8n);
    t.is((await solver.check({}, `(< ${x} 8)`)).status, 'unsat');
  });
});

for (const kind of kinds) test(`${kind}: a process that used the checker ends by itself, without shutdownZ3()`, async (t) => {
  const module = JSON.stringify(new URL('./lia.js', import.meta.url).href);
  const source = `import { isSatisfiable } from ${module};
import * as F from ${JSON.stringify(new URL('../ir/formula.js', import.meta.url).href)};
const result = await isSatisfiable(F.TRUE);
console.log('status=' + result.status);`;
  const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FARKAS_CHECKER: kind } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  t.is(outcome.signal, null, 'the process hung and was killed');
  t.is(outcome.code, 0, outcome.stderr);
  t.regex(outcome.stdout, /status=sat/);
});

serialForEach('a check sends any number of assertions at once (more than a call takes arguments)', async (t) => {
  const status = await withLiaSolver(async (solver) => {
    const x = solver.intSymbol();
    for (let k = 0; k < 700_000; k++) solver.assert(`(>= ${x} ${k % 7})`);
    solver.assert(`(< ${x} 6)`);
    return (await solver.check()).status;
  });
  t.is(status, 'unsat'); // x >= 6 from the first batch, x < 6 from the last assertion
});

serialForEach('a check past its work limit answers unknown, saying so; a term z3 rejects answers unknown, saying z3 failed', async (t) => {
  await withLiaSolver(async (solver) => {
    const bits: string[] = [];
    for (let i = 0; i < 30; i++) {
      const b = solver.intSymbol();
      bits.push(b);
      solver.assert(`(and (>= ${b} 0) (<= ${b} 1))`);
    }
    const sum = `(+ ${bits.map((b, i) => `(* ${(i * 7919 + 104729) % 100003} ${b})`).join(' ')})`;
    const limited = await solver.check({ work: 1000 }, `(= ${sum} 777777)`);
    t.is(limited.status, 'unknown');
    t.is(limited.reason, 'work limit reached (1000 of z3\'s resource units)');
    t.true(limited.work >= 1000);
    const rejected = await solver.check({}, '(> undeclared_symbol 0)');
    t.is(rejected.status, 'unknown');
    t.regex(rejected.reason ?? '', /^z3 failed: .*undeclared_symbol/);
    t.is((await solver.check({}, `(= ${bits[0]} 1)`)).status, 'sat');
    t.is(solver.model().int(bits[0]!), 1n);
  });
});
