// The work of one schedule step's SAT search with and without the template symmetry breaking of
// lib/encode/symmetry.ts: `node dist/scripts/step-conflicts.js FILE [--function F] [--cutset
// headers|paths] [--step N] [--conflicts C]`. Builds step N of the paper schedule (the system verify
// encodes, without the samples' conditions) and solves it twice with the embedded MiniSat within C
// conflicts, printing clauses, the answer and the conflicts of each: conflicts are the same on any
// machine, so the two rows compare in one run.
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { parseProgram } from '../lib/frontend/index.js';
import { Problem } from '../lib/problem/prepare.js';
import { stepSystem } from '../lib/engines/constraint/step-system.js';
import { encodeUnknowns } from '../lib/encode/system-encoder.js';
import { orderTemplatePositions } from '../lib/encode/symmetry.js';
import { createBackend } from '../lib/sat/index.js';
import { loadSchedule } from '../lib/constraints/schedule.js';

async function main(): Promise<number> {
  const cli = new Command('step-conflicts')
    .description('SAT conflicts of one schedule step, with and without symmetry breaking')
    .argument('<file>', 'C program')
    .option('--function <name>', 'function to analyse (default: the entry)')
    .option('--cutset <strategy>', 'paths or headers', 'paths')
    .option('--step <n>', 'step of the paper schedule, from 1', '1')
    .option('--conflicts <n>', 'conflict budget of each solve', '300000')
    .parse();
  const opts = cli.opts<{ function?: string; cutset: string; step: string; conflicts: string }>();
  const file = cli.args[0]!;
  const program = parseProgram(readFileSync(file, 'utf8'), file);
  const prepared = Problem.of(program, opts.function).analysis(opts.cutset === 'headers' ? 'headers' : 'paths');
  const scheduled = loadSchedule('paper').steps[Number(opts.step) - 1];
  if (scheduled === undefined) {
    process.stderr.write(`step-conflicts: the paper schedule has no step ${opts.step}\n`);
    return 3;
  }
  const backend = createBackend('minisat');
  for (const ordered of [false, true]) {
    const { system, templates, step } = stepSystem(prepared, scheduled);
    const encoder = encodeUnknowns(system.unknowns, step.widths);
    for (const c of system.constraints) encoder.assertConstraint(c);
    if (ordered) for (const t of templates.values()) orderTemplatePositions(encoder, t);
    const result = await backend.solve(encoder.builder.toCnf(), { conflicts: Number(opts.conflicts), propagations: 50 * Number(opts.conflicts) * 1000 });
    process.stdout.write(`${file} step ${opts.step} (${step.shape.disjuncts}x${step.shape.conjuncts}) ${ordered ? 'symmetry broken' : 'plain          '}: ${encoder.stats.clauses} clauses, ${result.status}, ${result.conflicts ?? '?'} conflicts\n`);
  }
  return 0;
}

process.exitCode = await main();
process.exit();
