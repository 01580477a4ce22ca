// What the claim guard (lib/guard, issue 19) costs on the benchmarks of `npm run bench`:
// `node dist/scripts/guard-cost.js [FOLDER] [--timeout SECONDS]`. Runs `verify` in this process (one
// job: the guard runs in whichever lane answers) on every task of FOLDER (default benchmarks/) with
// each of its cut-sets, and prints per task the whole time, the guard's time, runs and interpreter
// steps, then the totals and the guard's share. `npm run bench:conditions` shows the same for wp, sp,
// bounds, cex and nonterm (column "guard s").
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { parseProgram } from '../lib/frontend/index.js';
import { Problem, resolveSettings, verify } from '../lib/index.js';
import { guardCost } from '../lib/guard/runs.js';
import { shutdownZ3 } from '../lib/sat/z3-context.js';
import { discoverTasks } from '../benchmarks/tasks.js';

async function main(): Promise<number> {
  const here = dirname(fileURLToPath(import.meta.url));
  const cli = new Command('guard-cost')
    .description('the claim guard\'s share of the time of verify on the benchmark tasks')
    .argument('[folder]', 'benchmark folder', join(here, '../../benchmarks'))
    .option('--timeout <seconds>', 'bound per task and cut-set', '60')
    .parse();
  const root = resolve(cli.args[0] ?? join(here, '../../benchmarks'));
  const timeoutMs = Number(cli.opts<{ timeout: string }>().timeout) * 1000;
  if (!(timeoutMs > 0)) {
    process.stderr.write('guard-cost: --timeout takes a positive number of seconds\n');
    return 3;
  }
  let total = 0;
  let guarded = 0;
  console.log('| task | cut-set | verdict | time ms | guard ms | guard runs | guard steps |');
  console.log('|---|---|---|---:|---:|---:|---:|');
  for (const task of discoverTasks(root).tasks) {
    const program = parseProgram(readFileSync(task.file, 'utf8'), task.file, task.property ? { property: task.property } : {});
    for (const cutset of task.cutsets) {
      const before = { ...guardCost };
      const started = performance.now();
      const result = await verify(Problem.of(program, task.function), resolveSettings({ cutset, timeoutMs }));
      const millis = performance.now() - started;
      const guard = guardCost.millis - before.millis;
      total += millis;
      guarded += guard;
      console.log(`| ${task.id} | ${cutset} | ${result.verdict} | ${millis.toFixed(0)} | ${guard.toFixed(1)} | ${guardCost.runs - before.runs} | ${guardCost.steps - before.steps} |`);
    }
  }
  console.log(`\ntotal ${(total / 1000).toFixed(1)} s, guard ${(guarded / 1000).toFixed(2)} s (${((100 * guarded) / Math.max(total, 1)).toFixed(1)} %)`);
  await shutdownZ3();
  return 0;
}

process.exitCode = await main();
