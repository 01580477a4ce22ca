// The portfolio: which configurations run, that only a certified answer wins, that the losers are
// terminated (no live worker, the process ends by itself), and that one and two jobs agree.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { parseProgram } from '../frontend/index.js';
import { runProgram } from '../interpreter/index.js';
import { checkInvariants } from '../certify/certificate.js';
import { prepareAnalysis, Problem } from '../problem/prepare.js';
import { resolveSettings } from '../settings.js';
import { Deadline } from '../limits.js';
import { loadSchedule } from '../constraints/schedule.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { inLane, portfolioConfigurations, configurationName, type Configuration } from './configurations.js';
import { race, liveWorkers, isCertifiedAnswer } from './race.js';
import { verifyPortfolio } from './index.js';
import type { PortfolioJob } from './protocol.js';

test.after.always(() => shutdownZ3());

// Serial: liveWorkers() counts the whole process's portfolio workers, and the machine is small.


const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'farkas-portfolio-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test.serial('configurations: the schedule keeps a whole lane until there are more jobs than engines; engines follow', (t) => {
  t.deepEqual(portfolioConfigurations(1, [], true), [{ kind: 'schedule', lane: 0, lanes: 1 }]);
  t.deepEqual(portfolioConfigurations(2, ['symbolic', 'lazy-abstraction'], true).map(configurationName), ['schedule', 'engine symbolic', 'engine lazy-abstraction']);
  t.deepEqual(portfolioConfigurations(4, ['symbolic'], true).map(configurationName), ['schedule lane 1/3', 'schedule lane 2/3', 'schedule lane 3/3', 'engine symbolic']);
  t.deepEqual(portfolioConfigurations(2, [], true).map(configurationName), ['schedule lane 1/2', 'schedule lane 2/2']);
  // Procedure summaries search sequentially: one lane.
  t.deepEqual(portfolioConfigurations(4, ['symbolic'], false).map(configurationName), ['schedule', 'engine symbolic']);
  // The lanes partition the attempt sequence: every attempt in exactly one lane.
  for (const lanes of [1, 2, 3, 5]) {
    for (let index = 0; index < 20; index++) {
      const owners = Array.from({ length: lanes }, (_, lane) => lane).filter((lane) => inLane({ lane, lanes }, { index, total: 20, step: index >> 1, hull: index % 2 === 0 }));
      t.is(owners.length, 1);
    }
  }
});

test.serial('only certified answers count: an uncertified "safe" or an unreplayed "unsafe" never wins', (t) => {
  const base = { function: 'main', cutset: 'paths' as const, schedule: 'paper', cutpoints: 0, verificationConditions: 0, invariants: [], stats: [], millis: 0 };
  t.true(isCertifiedAnswer({ ...base, verdict: 'safe', certified: true }));
  t.false(isCertifiedAnswer({ ...base, verdict: 'safe', certified: false }));
  t.false(isCertifiedAnswer({ ...base, verdict: 'unsafe', certified: true, counterexample: { inputs: new Map(), nondet: [], line: 1, replayed: false } }));
  t.true(isCertifiedAnswer({ ...base, verdict: 'unsafe', certified: true, counterexample: { inputs: new Map(), nondet: [], line: 1, replayed: true } }));
  t.false(isCertifiedAnswer({ ...base, verdict: 'unknown', certified: false }));
});

// Fake workers: the schedule lane named in `answers` answers as told, every other configuration
// spins forever in a synchronous loop, as a SAT solve does (only terminating the thread stops it).
const FAKE = join(dir, 'fake-worker.mjs');
writeFileSync(FAKE, `
import { parentPort, workerData } from 'node:worker_threads';
const c = workerData.configuration;
const answer = workerData.settings.schedule.answers?.[c.kind === 'schedule' ? 'lane' + c.lane : c.engine];
if (answer) {
  const result = { function: 'main', cutset: 'paths', schedule: 'fake', cutpoints: 0, verificationConditions: 0, invariants: [], stats: [], millis: 1, ...answer };
  setTimeout(() => parentPort.postMessage({ kind: 'result', result, attemptIndices: [] }), 50);
} else {
  for (;;) {}
}
`);

function fakeJob(answers: Record<string, object>): (c: Configuration) => PortfolioJob {
  const program = parseProgram('int main() { return 0; }', 'fake.c');
  const schedule = { name: 'fake', description: '', steps: [], answers } as never;
  return (configuration) => ({ program, configuration, function: 'main', settings: { backend: 'minisat', schedule, cutset: 'paths', limits: resolveSettings().limits } });
}

test.serial('the first certified answer wins and every other worker, busy or not, is terminated', async (t) => {
  const configurations = portfolioConfigurations(3, ['symbolic'], true);
  const outcome = await race(configurations, { jobs: 2, jobFor: fakeJob({ lane0: { verdict: 'safe', certified: true } }), workerUrl: pathToFileURL(FAKE) });
  t.is(outcome.winner && configurationName(outcome.winner.configuration), 'schedule lane 1/2');
  t.deepEqual(outcome.outcomes.map((o) => [configurationName(o.configuration), o.kind]), [['schedule lane 1/2', 'result'], ['schedule lane 2/2', 'cancelled']]);
  t.is(liveWorkers(), 0);
});

test.serial('an uncertified answer does not win: the next configuration runs, and the deadline ends the spinning ones', async (t) => {
  // Lane 1 and the engine start; lane 1's uncertified answer frees a worker for lane 2.
  const configurations: Configuration[] = [{ kind: 'schedule', lane: 0, lanes: 2 }, { kind: 'engine', engine: 'symbolic' }, { kind: 'schedule', lane: 1, lanes: 2 }];
  const answers = { lane0: { verdict: 'safe', certified: false }, lane1: { verdict: 'unknown', certified: false, reason: 'no invariant' } };
  const outcome = await race(configurations, { jobs: 2, jobFor: fakeJob(answers), workerUrl: pathToFileURL(FAKE), deadline: new Deadline(5000) });
  t.is(outcome.winner, undefined);
  t.true(outcome.timedOut);
  const ended = new Map(outcome.outcomes.map((o) => [configurationName(o.configuration), o.kind]));
  t.is(ended.get('schedule lane 1/2'), 'result');
  t.is(ended.get('engine symbolic'), 'cancelled');
  t.true(ended.has('schedule lane 2/2'), 'the next configuration was started');
  t.is(liveWorkers(), 0);
});

const COUNT_UP = readFileSync(join(REPO, 'benchmarks/literature/count-up.c'), 'utf8');

test.serial('a schedule lane wins with invariants that the independent checker proves again', async (t) => {
  const program = parseProgram(COUNT_UP, 'count-up.c');
  const result = await verifyPortfolio(Problem.of(program, 'count_up'), resolveSettings({ timeoutMs: 60_000 }), { jobs: 2, engines: [] });
  t.is(result.verdict, 'safe');
  t.true(result.certified);
  t.regex(result.portfolio?.winner ?? '', /^schedule lane [12]\/2$/); // no engines: two lanes
  const prepared = prepareAnalysis(program, 'count_up', 'paths');
  const check = await checkInvariants(prepared.preparedProgram, 'count_up', new Map(result.invariants.map((i) => [i.location, i.formula])), { precondition: prepared.precondition });
  t.true(check.valid, check.reason);
});

test.serial('an unsafe answer comes with a counterexample that fails when replayed', async (t) => {
  const program = parseProgram(readFileSync(join(REPO, 'benchmarks/literature/off-by-one.c'), 'utf8'), 'off-by-one.c');
  const result = await verifyPortfolio(Problem.of(program, 'off_by_one'), resolveSettings({ timeoutMs: 60_000 }), { jobs: 2 });
  t.is(result.verdict, 'unsafe');
  const cex = result.counterexample!;
  const run = runProgram(program, { entry: 'off_by_one', inputs: cex.inputs, nondet: cex.nondet, nondetDefault: null });
  t.is(run.outcome.kind, 'assertion-failed');
});

test.serial('the process ends by itself after the race, the losers cancelled', async (t) => {
  t.timeout(120_000);
  const script = join(dir, 'exits.mjs');
  writeFileSync(script, `
import { parseProgram } from ${JSON.stringify(join(REPO, 'dist/lib/frontend/index.js'))};
import { verifyPortfolio, liveWorkers } from ${JSON.stringify(join(REPO, 'dist/lib/portfolio/index.js'))};
import { Problem } from ${JSON.stringify(join(REPO, 'dist/lib/problem/prepare.js'))};
import { resolveSettings } from ${JSON.stringify(join(REPO, 'dist/lib/settings.js'))};
const program = parseProgram(${JSON.stringify(COUNT_UP)}, 'count-up.c');
const r = await verifyPortfolio(Problem.of(program, 'count_up'), resolveSettings({ timeoutMs: 60000 }), { jobs: 2 });
console.log(JSON.stringify({ verdict: r.verdict, winner: r.portfolio.winner, configurations: r.portfolio.configurations, live: liveWorkers() }));
`);
  // No process.exit in the script: if a worker or a solver thread were left alive, it would not end.
  const { stdout } = await promisify(execFile)(process.execPath, [script], { timeout: 100_000 });
  const out = JSON.parse(stdout) as { verdict: string; winner: string; configurations: { name: string; verdict: string }[]; live: number };
  t.is(out.verdict, 'safe');
  t.is(out.live, 0);
  t.true(out.configurations.some((c) => c.name === out.winner && c.verdict === 'safe'));
  t.log(out.configurations.map((c) => `${c.name}: ${c.verdict}`).join(', '));
});

test.serial('--jobs 1 and --jobs 2 agree on benchmarks/paper and benchmarks/literature', async (t) => {
  t.timeout(290_000);
  const schedule = loadSchedule('paper');
  const rows: string[] = [];
  let bothAnswered = 0;
  for (const folder of ['paper', 'literature']) {
    for (const name of readdirSync(join(REPO, 'benchmarks', folder)).filter((f) => f.endsWith('.c')).sort()) {
      const file = join(REPO, 'benchmarks', folder, name);
      const expect = parse(readFileSync(file.replace(/\.c$/, '.expect.yaml'), 'utf8')) as { verdict: 'safe' | 'unsafe'; function?: string };
      const program = parseProgram(readFileSync(file, 'utf8'), file);
      const problem = Problem.of(program, expect.function);
      const one = await verifyPortfolio(problem, resolveSettings({ schedule, timeoutMs: 5000 }), { jobs: 1 });
      const two = await verifyPortfolio(problem, resolveSettings({ schedule, timeoutMs: 5000 }), { jobs: 2 });
      rows.push(`${folder}/${name}: expected ${expect.verdict}; 1 job ${one.verdict}; 2 jobs ${two.verdict} (${two.portfolio?.winner ?? two.reason})`);
      // Within a time bound either may miss an answer the other finds; a definite answer is never
      // contradicted, by the other run or by the truth.
      for (const r of [one, two]) if (r.verdict !== 'unknown') t.is(r.verdict, expect.verdict, `${name}: ${r.verdict}`);
      if (one.verdict !== 'unknown' && two.verdict !== 'unknown') bothAnswered++;
    }
  }
  t.log(rows.join('\n'));
  // The three bugs are found by concrete runs within a second: the comparison is never empty.
  t.true(bothAnswered >= 3, rows.join('\n'));
});
