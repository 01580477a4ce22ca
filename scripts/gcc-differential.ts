// gcc-differential testing of farkas's C integer semantics (issue 18): `node
// dist/scripts/gcc-differential.js --count N --seed S --data-model ILP32|LP64|both [--out DIR]
// [--batch B] [--types all|signed-only] [--prepared]`. Random programs over all integer types
// (scripts/cint/) are compiled with gcc and its undefined-behaviour sanitizer and run natively, and run
// by farkas's concrete interpreter on the same inputs; every difference is a bug in farkas (or, for
// 'tester-error', in the tester). With --prepared the program prepared for analysis
// (prepareAnalysis(program, 'f', 'paths').preparedProgram) is run and compared with gcc too; it is
// off by default because preparing builds the verification conditions, which makes a run over ten
// times slower (BENCHMARKS.md). Each failing program is saved under DIR (default
// scripts/cint-cases/) as `cint-<seed>-<index>-<model>.c` (the farkas text, everything known about the
// case in a trailing comment) and `….gcc.c` (the gcc text). Progress goes to stderr, the summary to
// stdout; exit code 1 when a program failed, 3 on bad options.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import type { CProgram } from './cint/ast.js';
import { checkPrograms, describeCase, isFailure, VERDICTS, type Report } from './cint/compare.js';
import { generateProgram } from './cint/generate.js';
import type { DataModel } from './cint/types.js';

/** The programs of a run: with 'both', even indices are ILP32 and odd ones LP64. */
export function runPrograms(count: number, seed: number, dataModel: DataModel | 'both', types: 'signed-only' | 'all'): CProgram[] {
  const programs: CProgram[] = [];
  for (let k = 0; k < count; k++) {
    const dm: DataModel = dataModel === 'both' ? (k % 2 === 0 ? 'ILP32' : 'LP64') : dataModel;
    programs.push(generateProgram(seed, k, { dataModel: dm, types }));
  }
  return programs;
}

export function summary(report: Report, millis: number): string {
  const n = report.programs.length;
  const perMinute = millis > 0 ? Math.round((n * 60_000) / millis) : 0;
  const failures = report.programs.filter((r) => isFailure(r.verdict)).length;
  const prepared = report.preparedCounts;
  return [
    `programs: ${n}, failing: ${failures}, ${perMinute} programs/minute`,
    ...VERDICTS.map((v) => `  ${v}: ${report.counts[v]}`),
    ...(prepared
      ? [`prepared programs (prepareAnalysis 'paths'): ${n - prepared.declined}, declined (too many paths): ${prepared.declined}`, ...VERDICTS.map((v) => `  ${v}: ${prepared[v]}`)]
      : []),
  ].join('\n') + '\n';
}

async function main(): Promise<number> {
  const cli = new Command('gcc-differential')
    .description('random C programs over all integer types, gcc (with the sanitizer) against farkas\'s interpreter')
    .option('--count <n>', 'programs to try', '200')
    .option('--seed <s>', 'seed of the program generator', '1')
    .option('--data-model <m>', 'ILP32, LP64 or both (alternating)', 'both')
    .option('--out <dir>', 'where failing programs are saved', 'scripts/cint-cases')
    .option('--batch <b>', 'programs per gcc compilation', '100')
    .option('--types <t>', 'all, or signed-only (the subset before issue 18)', 'all')
    .option('--prepared', 'also compare the program prepared for analysis (prepareAnalysis, paths cut-set) with gcc', false)
    .parse();
  const opts = cli.opts<{ count: string; seed: string; dataModel: string; out: string; batch: string; types: string; prepared: boolean }>();
  const count = Number(opts.count);
  const seed = Number(opts.seed);
  const batch = Number(opts.batch);
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(seed) || !Number.isInteger(batch) || batch < 1) {
    process.stderr.write('gcc-differential: --count, --seed and --batch take integers (--batch at least 1)\n');
    return 3;
  }
  if (!['ILP32', 'LP64', 'both'].includes(opts.dataModel)) {
    process.stderr.write(`gcc-differential: --data-model takes ILP32, LP64 or both, not '${opts.dataModel}'\n`);
    return 3;
  }
  if (opts.types !== 'all' && opts.types !== 'signed-only') {
    process.stderr.write(`gcc-differential: --types takes all or signed-only, not '${opts.types}'\n`);
    return 3;
  }
  const began = Date.now();
  const programs = runPrograms(count, seed, opts.dataModel as DataModel | 'both', opts.types);
  const report = await checkPrograms(programs, {
    batch,
    prepared: opts.prepared,
    onProgress: (done, total, counts) => {
      const failing = counts.differ + counts['ub-differ'] + counts['tester-error'];
      process.stderr.write(`gcc-differential: ${done}/${total} programs, ${failing} failing\n`);
    },
  });
  const millis = Date.now() - began;
  for (const r of report.programs) {
    if (!isFailure(r.verdict)) continue;
    mkdirSync(opts.out, { recursive: true });
    const base = join(opts.out, `cint-${r.id}`);
    const { farkas, gcc } = describeCase(r);
    writeFileSync(`${base}.c`, farkas);
    writeFileSync(`${base}.gcc.c`, gcc);
    process.stdout.write(`${r.verdict.toUpperCase()} ${base}.c: ${r.detail[0] ?? ''}${r.detail.length > 1 ? ` (+${r.detail.length - 1} more)` : ''}\n`);
  }
  process.stdout.write(summary(report, millis));
  return report.programs.some((r) => isFailure(r.verdict)) ? 1 : 0;
}

if (process.argv[1]?.endsWith('gcc-differential.js')) {
  main().then((code) => process.exit(code), (e: unknown) => {
    process.stderr.write(`gcc-differential: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(4);
  });
}
