// Every back end gives the same answer on the same instances (and every 'sat' model is checked).
import test from 'ava';
import fc from 'fast-check';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { satisfies } from './cnf-check.js';
import { createBackend, shutdownZ3 } from './index.js';
import { writeFakeSolver } from './testing/fake-solver.js';
import { bruteForceSatisfiable, pigeonhole, seededRandom3Cnf, smallCnf } from './testing/instances.js';
import type { Cnf, SatBackend } from './types.js';

let dir: string;
let inProcess: SatBackend[];
let bruteForceExternal: SatBackend;

const installed = (name: string) => (process.env['PATH'] ?? '').split(delimiter).some((d) => d && existsSync(join(d, name)));
const nativeSpecs = ['dimacs:cadical -q', 'dimacs:minisat'].filter((spec) => installed(spec.slice(7).split(' ')[0]!));

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'farkas-agree-test-'));
  bruteForceExternal = createBackend(`dimacs:${await writeFakeSolver(dir)}`);
  inProcess = ['minisat', 'z3', ...nativeSpecs].map((spec) => createBackend(spec));
});

test.after.always(async () => {
  await shutdownZ3();
  await rm(dir, { recursive: true, force: true });
});

async function answers(backends: SatBackend[], cnf: Cnf): Promise<string[]> {
  const results = await Promise.all(backends.map((backend) => backend.solve(cnf)));
  for (const result of results) {
    if (result.status === 'sat' && !satisfies(cnf, result.model!)) throw new Error(`${result.backend}: bad model`);
  }
  return results.map((result) => `${result.backend}: ${result.status}`);
}

const expected = (backends: SatBackend[], status: string) => backends.map((backend) => `${backend.name}: ${status}`);

test('all back ends agree with brute force on small random CNFs', async (t) => {
  await fc.assert(
    fc.asyncProperty(smallCnf(6, 24), async (cnf) => {
      const all = [...inProcess, bruteForceExternal];
      t.deepEqual(await answers(all, cnf), expected(all, bruteForceSatisfiable(cnf) ? 'sat' : 'unsat'));
    }),
    { numRuns: 12 },
  );
});

test('all back ends agree on pigeonhole and threshold random 3-SAT instances', async (t) => {
  t.deepEqual(await answers(inProcess, pigeonhole(6, 5)), expected(inProcess, 'unsat'));
  t.deepEqual(await answers(inProcess, pigeonhole(6, 6)), expected(inProcess, 'sat'));
  const statuses = new Set<string>();
  for (let seed = 1; seed <= 8; seed++) {
    const cnf = seededRandom3Cnf(60, 256, seed);
    const first = (await inProcess[0]!.solve(cnf)).status;
    statuses.add(first);
    t.deepEqual(await answers(inProcess, cnf), expected(inProcess, first), `seed ${seed}`);
  }
  t.deepEqual([...statuses].sort(), ['sat', 'unsat'], 'the random instances include both answers');
});
