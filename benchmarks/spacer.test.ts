import { spawnSync } from 'node:child_process';
import test from 'ava';
import { compare, comparisonLines, runSpacer, type SpacerRecord } from './spacer.js';
import type { RunRecord } from './classify.js';
import { REPO_ROOT } from './options.js';
import { join } from 'node:path';

function record(task: string, correctness: RunRecord['correctness'], wallMillis: number, cutset = 'paths'): RunRecord {
  return { task, file: `${task}.c`, expected: 'safe', cutset, status: correctness === 'correct' ? 'safe' : 'unknown', correctness, steps: 1, wallMillis, exitCode: 0 } as RunRecord;
}

const spacer = (verdict: SpacerRecord['verdict'], correctness: SpacerRecord['correctness'], wallMillis: number): SpacerRecord => ({ verdict, correctness, wallMillis });

test('compare: tasks proved by each, wrong answers by each, median and total time ratio farkas/Spacer', (t) => {
  const records = [record('a', 'correct', 1000), record('a', 'inconclusive', 5000, 'headers'), record('b', 'inconclusive', 4000), record('c', 'correct', 3000)];
  const baseline = new Map([['a', spacer('safe', 'correct', 2000)], ['b', spacer('safe', 'correct', 1000)], ['c', spacer('unsafe', 'wrong', 3000)]]);
  const c = compare(records, baseline);
  t.like(c, { tasks: 3, timed: 3, farkasCorrect: 2, spacerCorrect: 2, farkasWrong: 0, spacerWrong: 1, farkasMillis: 8000, spacerMillis: 6000 });
  t.deepEqual(c.onlySpacer, ['b']);
  t.deepEqual(c.onlyFarkas, ['c']);
  // Ratios per task (first cut-set's time): 0.5, 4, 1 → median 1; total 8000 / 6000.
  t.is(c.medianRatio, 1);
  t.is(c.totalRatio, 8000 / 6000);
  t.regex(comparisonLines(c).join('\n'), /median 1\.00, total 1\.33/);
  // Both correct only on a (farkas' first cut-set answered it): 1000 / 2000.
  t.is(c.bothCorrectMedianRatio, 0.5);
  t.regex(comparisonLines(c).join('\n'), /both answered correctly: median ratio 0\.50/);
});

test('runSpacer: the CHC export of fig1 in a child process is proved safe; an unsupported task is rejected, not wrong', async (t) => {
  const fig1 = await runSpacer({ file: join(REPO_ROOT, 'benchmarks/paper/fig1.c'), function: 'PV1', expected: 'safe' }, 60, 5);
  t.like(fig1, { verdict: 'safe', correctness: 'correct' });
  t.true(fig1.wallMillis > 0);
  const recursive = await runSpacer({ file: join(REPO_ROOT, 'benchmarks/interproc/sum.c'), expected: 'safe' }, 60, 5);
  t.like(recursive, { verdict: 'rejected', correctness: 'none' });
});

const nativeZ3 = spawnSync('z3', ['--version'], { stdio: 'ignore' }).status === 0;
(nativeZ3 ? test : test.skip)('runSpacer native: native z3 on the export of fig1 proves it safe, timed alone; of an unsafe program finds it unsafe', async (t) => {
  const fig1 = await runSpacer({ file: join(REPO_ROOT, 'benchmarks/paper/fig1.c'), function: 'PV1', expected: 'safe' }, 60, 5, 'native');
  t.like(fig1, { verdict: 'safe', correctness: 'correct' });
  t.true(fig1.wallMillis > 0);
  t.is(fig1.solveMillis, fig1.wallMillis);
  const broken = await runSpacer({ file: join(REPO_ROOT, 'benchmarks/literature/broken-sum.c'), expected: 'unsafe' }, 60, 5, 'native');
  t.like(broken, { verdict: 'unsafe', correctness: 'correct' });
});
