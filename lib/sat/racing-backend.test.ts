import test from 'ava';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend } from './index.js';
import { MinisatBackend } from './minisat-backend.js';
import { installedExternalSolver, RacingBackend } from './racing-backend.js';
import type { Cnf, SatBackend, SatResult, SatStatus, SolveOptions } from './types.js';

const CNF: Cnf = { numVars: 2, clauses: [[1, 2], [-1, 2], [1, -2]] };

/** A back end whose answer is released by the test (`finish()`), so the order of the racers'
 * answers is the test's choice, not the scheduler's. Records whether it was asked and cancelled. */
class Scripted implements SatBackend {
  asked = false;
  cancelled = false;
  private release: (() => void) | null = null;
  constructor(readonly name: string, private readonly status: SatStatus, private readonly model: boolean[] = [false, true, true]) {}
  solve(_cnf: Cnf, options: SolveOptions = {}): Promise<SatResult> {
    this.asked = true;
    return new Promise((resolve) => {
      // Like MiniSat, the embedded one counts its conflicts; like `cadical -q`, the external one does not.
      const work = this.name === 'minisat' ? { conflicts: 1234, propagations: 56789 } : {};
      const answer = (): void => resolve(this.status === 'sat' ? { status: 'sat', model: this.model, millis: 0, backend: this.name, ...work } : { status: this.status, millis: 0, backend: this.name, ...work, ...(this.status === 'unknown' ? { reason: `${this.name} ran out` } : {}) });
      this.release = answer;
      options.signal?.addEventListener('abort', () => {
        this.cancelled = true;
        resolve({ status: 'unknown', reason: 'cancelled', millis: 0, backend: this.name });
      }, { once: true });
    });
  }
  finish(): void {
    this.release?.();
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Races two scripted solvers, releasing them in `order` ('embedded' first or 'external' first); a
 * racer already cancelled by then is not released. */
async function race(embeddedStatus: SatStatus, externalStatus: SatStatus, order: 'embedded' | 'external') {
  const embedded = new Scripted('minisat', embeddedStatus, [false, true, true]);
  const external = new Scripted('dimacs:cadical -q', externalStatus, [false, true, true]);
  const racing = new RacingBackend(embedded, external, { min: 1, max: 100 });
  const result = racing.solve(CNF);
  await turn();
  const [first, second] = order === 'embedded' ? [embedded, external] : [external, embedded];
  first.finish();
  await turn();
  if (!second.cancelled) second.finish();
  return { result: await result, embedded, external };
}

test('the answer taken does not depend on which solver finishes first', async (t) => {
  const statuses: SatStatus[] = ['sat', 'unsat', 'unknown'];
  for (const e of statuses) {
    for (const x of statuses) {
      if ((e === 'sat' && x === 'unsat') || (e === 'unsat' && x === 'sat')) continue; // a solver's bug
      const a = await race(e, x, 'embedded');
      const b = await race(e, x, 'external');
      t.is(a.result.status, b.result.status, `${e}/${x}`);
      // The work charged to the caller's budget does not depend on the order either.
      t.is(a.result.conflicts, b.result.conflicts, `${e}/${x}`);
      t.is(a.result.propagations, b.result.propagations, `${e}/${x}`);
      // The external solver's model is the one taken whenever it has one.
      if (x === 'sat') t.is(a.result.backend, 'dimacs:cadical -q', `${e}/${x}`);
      if (x === 'sat') t.is(b.result.backend, 'dimacs:cadical -q', `${e}/${x}`);
      if (e === 'sat' && x === 'unknown') t.is(a.result.backend, 'minisat');
      const expected = x !== 'unknown' ? x : e;
      t.is(a.result.status, expected, `${e}/${x}`);
    }
  }
});

test('an unsat ends the race at once; an external answer cancels the embedded solver', async (t) => {
  const unsatFirst = await race('unsat', 'sat', 'embedded');
  t.is(unsatFirst.result.status, 'unsat');
  t.true(unsatFirst.external.cancelled);
  const externalFirst = await race('sat', 'sat', 'external');
  t.true(externalFirst.embedded.cancelled);
  t.is(externalFirst.result.backend, 'dimacs:cadical -q');
  // The embedded 'sat' that comes first waits for the external answer instead of cancelling it.
  const embeddedFirst = await race('sat', 'sat', 'embedded');
  t.false(embeddedFirst.external.cancelled);
  t.is(embeddedFirst.result.backend, 'dimacs:cadical -q');
});

test('neither answers: unknown with both reasons', async (t) => {
  const { result } = await race('unknown', 'unknown', 'external');
  t.is(result.status, 'unknown');
  t.regex(result.reason ?? '', /minisat ran out.*dimacs:cadical -q: dimacs:cadical -q ran out/);
});

test('instances outside the clause range go to the embedded solver alone', async (t) => {
  const embedded = new Scripted('minisat', 'sat');
  const external = new Scripted('dimacs:cadical -q', 'sat');
  const small = new RacingBackend(embedded, external, { min: CNF.clauses.length + 1, max: 100 });
  const answer = small.solve(CNF);
  await turn();
  embedded.finish();
  t.is((await answer).backend, 'minisat');
  t.false(external.asked);
  const large = new RacingBackend(embedded, external, { min: 1, max: CNF.clauses.length - 1 });
  const again = large.solve(CNF);
  await turn();
  embedded.finish();
  await again;
  t.false(external.asked);
});

test("'auto' races cadical when it is on PATH and is the embedded MiniSat alone otherwise", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'farkas-race-test-'));
  const savedPath = process.env['PATH'];
  try {
    const cadical = join(dir, 'cadical');
    await writeFile(cadical, '#!/bin/sh\necho "s UNKNOWN"\n');
    await chmod(cadical, 0o755);
    process.env['PATH'] = dir;
    t.is(installedExternalSolver()?.name, 'dimacs:cadical -q');
    const auto = createBackend('auto');
    t.true(auto instanceof RacingBackend);
    t.is(auto.name, 'minisat+dimacs:cadical -q');
    t.true(createBackend('minisat') instanceof MinisatBackend);
    process.env['PATH'] = join(dir, 'nothing-here');
    t.is(installedExternalSolver(), null);
    t.true(createBackend('auto') instanceof MinisatBackend);
  } finally {
    process.env['PATH'] = savedPath;
    await rm(dir, { recursive: true, force: true });
  }
});
