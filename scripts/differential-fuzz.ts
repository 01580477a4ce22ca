// Differential fuzzing of every engine (issue 7): `node dist/scripts/differential-fuzz.js --count N
// --seed S [--timeout SECONDS] [--out DIR] [--engines a,b]`. Each random program goes through
// bounded concrete execution and through the constraint engine and every interpolation engine; a
// disagreement is saved as a C file (the program, with the disagreement in a leading comment) under
// DIR (default scripts/fuzz-cases/). Exit code 1 when a disagreement was found.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { parseProgram } from '../lib/frontend/index.js';
import { registeredEngines } from '../lib/engines/index.js';
import { shutdownZ3 } from '../lib/sat/z3-context.js';
import { mulberry32 } from '../lib/random.js';
import { ProgramGenerator } from './fuzz/generate.js';
import { fuzzProgram, type FuzzEngine } from './fuzz/differential.js';
import { Problem } from '../lib/problem/prepare.js';
import { resolveSettings } from '../lib/settings.js';

export function allEngines(timeoutMs: number): FuzzEngine[] {
  return registeredEngines().map((engine): FuzzEngine => ({ name: engine.name, run: (p) => engine.run(Problem.of(p), resolveSettings({ timeoutMs: timeoutMs })) }));
}

async function main(): Promise<number> {
  const cli = new Command('differential-fuzz')
    .description('random small programs through every engine and bounded concrete execution')
    .option('--count <n>', 'programs to try', '20')
    .option('--seed <s>', 'seed of the program generator', '1')
    .option('--timeout <seconds>', 'bound per engine and program', '5')
    .option('--out <dir>', 'where disagreements are saved', 'scripts/fuzz-cases')
    .option('--engines <names>', 'comma-separated subset (constraints and interpolation engine names)')
    .parse();
  const opts = cli.opts<{ count: string; seed: string; timeout: string; out: string; engines?: string }>();
  const count = Number(opts.count);
  const seed = Number(opts.seed);
  const timeoutMs = Number(opts.timeout) * 1000;
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(seed) || !(timeoutMs > 0)) {
    process.stderr.write('differential-fuzz: --count and --seed take integers, --timeout a positive number\n');
    return 3;
  }
  let engines = allEngines(timeoutMs);
  if (opts.engines) {
    const wanted = new Set(opts.engines.split(','));
    engines = engines.filter((e) => wanted.has(e.name));
  }
  const generator = new ProgramGenerator(mulberry32(seed));
  const tally = new Map<string, Map<string, number>>();
  let found = 0;
  let failing = 0;
  for (let k = 0; k < count; k++) {
    const source = generator.program();
    const program = parseProgram(source, `fuzz-${seed}-${k}.c`);
    const outcome = await fuzzProgram(program, engines, { seed: seed * 100_003 + k });
    if (outcome.failingRun) failing++;
    for (const v of outcome.verdicts) {
      const byVerdict = tally.get(v.engine) ?? new Map<string, number>();
      byVerdict.set(v.verdict, (byVerdict.get(v.verdict) ?? 0) + 1);
      tally.set(v.engine, byVerdict);
    }
    if (outcome.disagreements.length > 0) {
      found++;
      mkdirSync(opts.out, { recursive: true });
      const file = join(opts.out, `fuzz-${seed}-${k}.c`);
      const header = ['// differential-fuzz disagreement (seed ' + seed + ', program ' + k + '):', ...outcome.disagreements.map((d) => `//   ${d}`),
        ...outcome.verdicts.map((v) => `//   ${v.engine}: ${v.verdict}${v.reason ? ` (${v.reason})` : ''}`)].join('\n');
      writeFileSync(file, `${header}\n${source}`);
      process.stdout.write(`DISAGREEMENT ${file}: ${outcome.disagreements.join('; ')}\n`);
    }
  }
  process.stdout.write(`programs: ${count}, with a disagreement: ${found}, failing concrete runs: ${failing}\n`);
  for (const [engine, byVerdict] of tally) {
    process.stdout.write(`  ${engine}: ${[...byVerdict].map(([v, n]) => `${v} ${n}`).join(', ')}\n`);
  }
  return found > 0 ? 1 : 0;
}

if (process.argv[1]?.endsWith('differential-fuzz.js')) {
  main().then(async (code) => {
    await shutdownZ3();
    process.exit(code);
  }, async (e: unknown) => {
    process.stderr.write(`differential-fuzz: ${e instanceof Error ? e.stack : String(e)}\n`);
    await shutdownZ3();
    process.exit(4);
  });
}
