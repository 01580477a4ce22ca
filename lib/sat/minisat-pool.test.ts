import test from 'ava';
import { MinisatWorkerPool } from './minisat-pool.js';
import type { MinisatJob } from './minisat-protocol.js';

const misbehaving = new URL('./testing/misbehaving-worker.js', import.meta.url);
const job = (): MinisatJob => ({ numVars: 1, flatClauses: Int32Array.from([1, 0]) });

test('a worker that fails to load, exits or throws gives a crashed outcome, not a rejection', async (t) => {
  const failsToLoad = await new MinisatWorkerPool(1, 1, misbehaving).run(job(), {});
  t.deepEqual(failsToLoad, { kind: 'crashed', detail: 'cannot load' });
  const exits = await new MinisatWorkerPool(2, 1, misbehaving).run(job(), {});
  t.deepEqual(exits, { kind: 'crashed', detail: 'worker exited with code 3' });
  const throws = await new MinisatWorkerPool(3, 1, misbehaving).run(job(), {});
  t.deepEqual(throws, { kind: 'crashed', detail: 'job failed' });
});

test('jobs beyond the worker limit wait their turn; waiting counts toward the time limit', async (t) => {
  const pool = new MinisatWorkerPool(0, 1, misbehaving);
  const [first, second, third] = await Promise.all([
    pool.run(job(), {}),
    pool.run(job(), {}),
    pool.run(job(), { timeLimitMs: 20 }),
  ]);
  t.deepEqual([first.kind, second.kind, third.kind], ['unsat', 'unsat', 'timeout']);
  const controller = new AbortController();
  const [running, queued] = [pool.run(job(), {}), pool.run(job(), { signal: controller.signal })];
  controller.abort();
  t.is((await queued).kind, 'cancelled');
  t.is((await running).kind, 'unsat');
  t.is((await pool.run(job(), {})).kind, 'unsat', 'a cancelled waiting job does not hold a slot');
});
