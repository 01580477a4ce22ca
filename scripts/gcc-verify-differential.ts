// gcc-differential testing of farkas's verifier (issue 18): `node dist/scripts/gcc-verify-differential.js
// --count N --seed S --data-model ILP32|LP64|both --timeout SECONDS [--jobs J] [--out DIR] [--batch B]
// [--hard-timeout SECONDS]`. Random small programs over all integer types, each ending with one
// `__VERIFIER_assert` (scripts/cint/verify-task.ts), are verified by farkas (`verify --function f`);
// every counterexample is run natively (gcc with the undefined-behaviour sanitizer) and must fail the
// assertion there without undefined behaviour before it, and every "safe" is checked by running gcc on
// probe inputs, none of which may fail the assertion without undefined behaviour. Each disagreeing task
// is saved under DIR (default scripts/cint-verify-cases/) as `vcint-<seed>-<index>-<model>.c` (the
// farkas text, what is known in a trailing comment) and `….gcc.c` (the gcc text running f on the
// counterexample or the failing input). Progress goes to stderr, the summary to stdout; exit code 1 when
// a task failed (a disagreement, a farkas error or a tester error), 3 on bad options.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { checkTasks, describeTask, isTaskFailure, TASK_VERDICTS, type VerifyReport } from './cint/verify-compare.js';
import { runTasks, type Expectation } from './cint/verify-task.js';
import type { DataModel } from './cint/types.js';

export function verifySummary(report: VerifyReport, millis: number): string {
  const n = report.tasks.length;
  const perMinute = millis > 0 ? ((n * 60_000) / millis).toFixed(1) : '0';
  const failures = report.tasks.filter((r) => isTaskFailure(r.verdict)).length;
  const killed = report.tasks.filter((r) => r.farkas.kind === 'verdict' && r.farkas.killed).length;
  const farkasSeconds = report.tasks.reduce((s, r) => s + r.farkas.millis, 0) / 1000;
  const byExpectation = (['mixed', 'holds', 'fails'] as const).map((e: Expectation) => {
    const of = report.tasks.filter((r) => r.task.expectation === e);
    const safe = of.filter((r) => r.verdict === 'safe' || r.verdict === 'wrong-safe').length;
    const unsafe = of.filter((r) => r.verdict === 'unsafe' || r.verdict === 'wrong-unsafe').length;
    return `${e} ${of.length} (safe ${safe}, unsafe ${unsafe})`;
  });
  return [
    `tasks: ${n}, failing: ${failures}, ${perMinute} tasks/minute (${Math.round(millis / 1000)} s, ${Math.round(farkasSeconds)} s in farkas)`,
    ...TASK_VERDICTS.map((v) => `  ${v}: ${report.counts[v]}${v === 'unknown' && killed > 0 ? ` (${killed} terminated at the hard bound)` : ''}`),
    `  generated as: ${byExpectation.join(', ')}`,
  ].join('\n') + '\n';
}

async function main(): Promise<number> {
  const cli = new Command('gcc-verify-differential')
    .description('random C verification tasks over all integer types: farkas verify against gcc (with the sanitizer)')
    .option('--count <n>', 'tasks to try', '100')
    .option('--seed <s>', 'seed of the task generator', '1')
    .option('--data-model <m>', 'ILP32, LP64 or both (alternating)', 'both')
    .option('--timeout <seconds>', "farkas verify's time bound per task", '5')
    .option('--hard-timeout <seconds>', 'terminate farkas on a task after this long (default: twice --timeout plus 5)')
    .option('--jobs <j>', 'portfolio workers per task (1: the sequential search)', '1')
    .option('--out <dir>', 'where disagreeing tasks are saved', 'scripts/cint-verify-cases')
    .option('--batch <b>', 'tasks per gcc compilation', '25')
    .parse();
  const opts = cli.opts<{ count: string; seed: string; dataModel: string; timeout: string; hardTimeout?: string; jobs: string; out: string; batch: string }>();
  const count = Number(opts.count);
  const seed = Number(opts.seed);
  const batch = Number(opts.batch);
  const jobs = Number(opts.jobs);
  const timeout = Number(opts.timeout);
  const hard = opts.hardTimeout === undefined ? undefined : Number(opts.hardTimeout);
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(seed) || !Number.isInteger(batch) || batch < 1 || !Number.isInteger(jobs) || jobs < 1) {
    process.stderr.write('gcc-verify-differential: --count, --seed, --batch and --jobs take integers (--batch and --jobs at least 1)\n');
    return 3;
  }
  if (!(timeout > 0) || (hard !== undefined && !(hard > 0))) {
    process.stderr.write('gcc-verify-differential: --timeout and --hard-timeout take a positive number of seconds\n');
    return 3;
  }
  if (!['ILP32', 'LP64', 'both'].includes(opts.dataModel)) {
    process.stderr.write(`gcc-verify-differential: --data-model takes ILP32, LP64 or both, not '${opts.dataModel}'\n`);
    return 3;
  }
  const began = Date.now();
  const tasks = runTasks(count, seed, opts.dataModel as DataModel | 'both');
  const report = await checkTasks(tasks, {
    timeoutMs: timeout * 1000,
    ...(hard !== undefined ? { hardTimeoutMs: hard * 1000 } : {}),
    jobs,
    batch,
    onTask: (r, done, total) => {
      const answer = r.farkas.kind === 'error' ? 'error' : `${r.farkas.verdict}${r.farkas.killed ? ` (${r.farkas.killed})` : ''}`;
      process.stderr.write(`gcc-verify-differential: ${done}/${total} ${r.id} (${r.task.expectation}): farkas ${answer} in ${(r.farkas.millis / 1000).toFixed(1)} s -> ${r.verdict}\n`);
    },
  });
  const millis = Date.now() - began;
  for (const r of report.tasks) {
    if (!isTaskFailure(r.verdict)) continue;
    mkdirSync(opts.out, { recursive: true });
    const base = join(opts.out, `vcint-${r.id}`);
    const { farkas, gcc } = describeTask(r);
    writeFileSync(`${base}.c`, farkas);
    writeFileSync(`${base}.gcc.c`, gcc);
    process.stdout.write(`${r.verdict.toUpperCase()} ${base}.c: ${r.detail[0] ?? ''}${r.detail.length > 1 ? ` (+${r.detail.length - 1} more)` : ''}\n`);
  }
  process.stdout.write(verifySummary(report, millis));
  return report.tasks.some((r) => isTaskFailure(r.verdict)) ? 1 : 0;
}

if (process.argv[1]?.endsWith('gcc-verify-differential.js')) {
  main().then((code) => process.exit(code), (e: unknown) => {
    process.stderr.write(`gcc-verify-differential: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(4);
  });
}
