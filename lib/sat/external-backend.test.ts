import test from 'ava';
import fc from 'fast-check';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { InputError } from '../diagnostics.js';
import { INVALID_MODEL_REASON, satisfies } from './cnf-check.js';
import { ExternalBackend, parseCommandSpec, parseResultFile, parseSolverOutput } from './external-backend.js';
import { bruteForceSatisfiable, pigeonhole, smallCnf } from './testing/instances.js';
import { writeFakeSolver } from './testing/fake-solver.js';

let dir: string;
let fake: string;

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'farkas-external-test-'));
  fake = await writeFakeSolver(dir);
});

test.after.always(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('parseSolverOutput reads s and v lines and ignores the rest', (t) => {
  t.deepEqual(parseSolverOutput('c hello\ns SATISFIABLE\nv 1 -2\nv 3 0\n'), { status: 'sat', literals: [1, -2, 3] });
  t.deepEqual(parseSolverOutput('s UNSATISFIABLE\n'), { status: 'unsat', literals: null });
  t.deepEqual(parseSolverOutput('s UNKNOWN\n'), { status: 'unknown', literals: null });
  t.deepEqual(parseSolverOutput('c nothing\n'), { status: null, literals: null });
});

test('the fake solver through dimacs:CMD agrees with brute force', async (t) => {
  const backend = new ExternalBackend(`${fake} normal`);
  await fc.assert(
    fc.asyncProperty(smallCnf(6, 20), async (cnf) => {
      const result = await backend.solve(cnf);
      t.is(result.status, bruteForceSatisfiable(cnf) ? 'sat' : 'unsat');
      if (result.status === 'sat') t.true(satisfies(cnf, result.model!));
    }),
    { numRuns: 8 },
  );
  t.is((await backend.solve(pigeonhole(4, 3))).status, 'unsat');
  t.is(backend.name, `dimacs:${fake} normal`);
});

test('parseResultFile reads MiniSat result files', (t) => {
  t.deepEqual(parseResultFile('SAT\n-1 2 0\n'), { status: 'sat', literals: [-1, 2] });
  t.deepEqual(parseResultFile('UNSAT\n'), { status: 'unsat', literals: null });
  t.deepEqual(parseResultFile('INDET\n'), { status: 'unknown', literals: null });
  t.deepEqual(parseResultFile(''), { status: null, literals: null });
});

test('exit codes 10/20 are enough without an s line; %i places the input', async (t) => {
  const backend = new ExternalBackend(`${fake} %i exit-code-only`);
  t.is((await backend.solve(pigeonhole(3, 3))).status, 'sat');
  t.is((await backend.solve(pigeonhole(3, 2))).status, 'unsat');
});

test('a wrong or missing model becomes unknown', async (t) => {
  const satOnlyWithTrue = { numVars: 2, clauses: [[1], [1, 2]] };
  const wrong = await new ExternalBackend(`${fake} wrong-model`).solve(satOnlyWithTrue);
  t.deepEqual([wrong.status, wrong.reason], ['unknown', INVALID_MODEL_REASON]);
  const none = await new ExternalBackend(`${fake} no-model`).solve(satOnlyWithTrue);
  t.deepEqual([none.status, none.reason], ['unknown', 'solver answered SATISFIABLE without a model']);
});

test('a crash becomes unknown with the exit code and stderr', async (t) => {
  const result = await new ExternalBackend(`${fake} crash`).solve(pigeonhole(2, 2));
  t.is(result.status, 'unknown');
  t.regex(result.reason!, /exited with code 1 without an answer: boom: cannot parse/);
  const killed = await new ExternalBackend(`${fake} killed`).solve(pigeonhole(2, 2));
  t.is(killed.status, 'unknown');
  t.regex(killed.reason!, /was killed by SIGKILL without an answer$/);
});

test('a timeout kills the solver and answers unknown; cancellation too', async (t) => {
  const backend = new ExternalBackend(`${fake} sleep`);
  const started = performance.now();
  const result = await backend.solve(pigeonhole(2, 2), { timeLimitMs: 300 });
  t.deepEqual([result.status, result.reason], ['unknown', 'timeout after 300 ms']);
  t.true(performance.now() - started < 10_000);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const cancelled = await backend.solve(pigeonhole(2, 2), { signal: controller.signal });
  t.deepEqual([cancelled.status, cancelled.reason], ['unknown', 'cancelled']);
});

test('commands are found on PATH, by relative path, or rejected with an InputError', async (t) => {
  const previousPath = process.env['PATH'];
  process.env['PATH'] = `${dir}${delimiter}${previousPath}`;
  try {
    t.is(parseCommandSpec('fake-solver -q').executable, fake);
    t.deepEqual(parseCommandSpec('fake-solver -q').args, ['-q', '%i']);
    t.deepEqual(parseCommandSpec('fake-solver %i -q').args, ['%i', '-q']);
  } finally {
    process.env['PATH'] = previousPath;
  }
  t.is(parseCommandSpec(relative(process.cwd(), fake)).executable, fake);
  const notFound = t.throws(() => new ExternalBackend('no-such-sat-solver-xyz -q'), { instanceOf: InputError });
  t.is(notFound!.message, "error: SAT solver command 'no-such-sat-solver-xyz' not found on PATH or not executable");
  const notExecutable = join(dir, 'plain.txt');
  await writeFile(notExecutable, 'not a program');
  t.throws(() => new ExternalBackend(notExecutable), { instanceOf: InputError });
  t.throws(() => new ExternalBackend('  '), { instanceOf: InputError });
});

test('a solver that disappears after creation gives unknown', async (t) => {
  const vanishing = join(dir, 'vanishing-solver');
  await copyFile(fake, vanishing);
  const backend = new ExternalBackend(`${vanishing} normal`);
  const ok = await backend.solve(pigeonhole(2, 2));
  t.is(ok.status, 'sat');
  await rm(vanishing);
  const result = await backend.solve(pigeonhole(2, 2));
  t.is(result.status, 'unknown');
  t.regex(result.reason!, /^could not run .*vanishing-solver: .*ENOENT/);
});

test('the solver gets a DIMACS file that is deleted after the solve', async (t) => {
  const seenPath = join(dir, 'seen');
  const spy = join(dir, 'spy-solver');
  const script = `require('fs').writeFileSync(${JSON.stringify(seenPath)}, process.argv.at(-1)); process.exit(20);`;
  await writeFile(spy, `#!${process.execPath}\n${script}\n`, { mode: 0o755 });
  t.is((await new ExternalBackend(spy).solve(pigeonhole(2, 2))).status, 'unsat');
  const given = await readFile(seenPath, 'utf8');
  t.regex(given, /problem\.cnf$/);
  t.false(existsSync(given));
});

for (const command of ['cadical -q', 'minisat']) {
  const name = command.split(' ')[0]!;
  const installed = (process.env['PATH'] ?? '').split(delimiter).some((d) => d && existsSync(join(d, name)));
  (installed ? test : test.skip)(`${name} (when installed) agrees on pigeonhole instances`, async (t) => {
    const backend = new ExternalBackend(command);
    t.is((await backend.solve(pigeonhole(6, 5))).status, 'unsat');
    const sat = await backend.solve(pigeonhole(5, 5));
    t.is(sat.status, 'sat');
    t.true(satisfies(pigeonhole(5, 5), sat.model!));
  });
}

test('a solver known by name gets the conflict limit; its UNKNOWN is the limit, a crash keeps its reason', async (t) => {
  const named = join(dir, 'limited');
  await mkdir(named, { recursive: true });
  const cadical = join(named, 'cadical');
  await copyFile(fake, cadical);
  const cnf = pigeonhole(3, 2);
  const limited = await new ExternalBackend(`${cadical} normal`).solve(cnf, { conflicts: 0 });
  t.is(limited.status, 'unknown');
  t.is(limited.reason, 'conflict limit reached (0 conflicts)');
  t.is((await new ExternalBackend(`${cadical} normal`).solve(cnf, { conflicts: 1000 })).status, 'unsat');
  const crashed = await new ExternalBackend(`${cadical} crash`).solve(cnf, { conflicts: 0 });
  t.regex(crashed.reason!, /exited with code 1 without an answer: boom/);
  // Another command is not given cadical's option: it answers as without a limit.
  t.is((await new ExternalBackend(`${fake} normal`).solve(cnf, { conflicts: 0 })).status, 'unsat');
  // The real cadical says a spent limit as the comment `c UNKNOWN` and exits 0 (cadical 1.5, -q).
  const quiet = join(dir, 'quiet');
  await mkdir(quiet, { recursive: true });
  await writeFile(join(quiet, 'cadical'), '#!/bin/sh\necho "c UNKNOWN"\nexit 0\n', { mode: 0o755 });
  const spent = await new ExternalBackend(`${join(quiet, 'cadical')} -q`).solve(cnf, { conflicts: 10 });
  t.is(spent.reason, 'conflict limit reached (10 conflicts)');
});
