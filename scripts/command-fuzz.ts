// Fuzzing every command against brute force (issue 19, item 5): `node dist/scripts/command-fuzz.js
// --count N --seed S [--timeout SECONDS] [--minutes M] [--commands verify,wp,sp,bounds,cex,nonterm] [--engines
// constraints,symbolic,...] [--only K] [--out DIR]`. Each random function (scripts/fuzz/
// generate-commands.ts: loops nested and sequenced, parameters, assertions) goes through verify (the
// constraint engine and every interpolation engine), wp, sp, bounds, cex and nonterm, and every claim
// they certify is checked on runs of the original program over a box of small inputs
// (scripts/fuzz/commands.ts). A disagreeing program is saved as a C file, the disagreements in a
// leading comment, under DIR (default scripts/fuzz-cases/). Programs depend on the seed alone: `--seed
// S --count K+1 --only K` runs program K of seed S again. Exit code 1 when a disagreement was found.
//
// `--programs needles` (issue 44): whole programs whose one assertion fails only on one specific input
// or a narrow set (scripts/fuzz/generate-needles.ts: equality with a constant, a boundary value of a
// type, a deep iteration, a deep recursion) go through verify as a user runs it (`farkas verify FILE
// --timeout T`: the portfolio with its default jobs, or --jobs) and cex. It counts the bugs verify finds
// (unsafe, its counterexample replayed) and the programs cex gives a failing condition for; the claims
// are checked on runs of the generator's failing inputs and of passing inputs around them (a "safe",
// a counterexample that does not fail, a certified condition admitting a passing input are wrong
// answers). `[--families equality,boundary,iteration,recursion] [--jobs J]`; exit code 1 on a wrong answer.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { parseProgram } from '../lib/frontend/index.js';
import { shutdownZ3 } from '../lib/sat/z3-context.js';
import { mulberry32 } from '../lib/random.js';
import { DEFAULT_JOBS, MAX_JOBS } from '../lib/portfolio/index.js';
import { CommandProgramGenerator } from './fuzz/generate-commands.js';
import { NEEDLE_FAMILIES, NeedleGenerator, needleMismatches, type Needle, type NeedleFamily } from './fuzz/generate-needles.js';
import { COMMANDS, fuzzProgram, streamBox, verifyEngines, type BoxOptions, type CommandName, type Disagreement, type ProgramReport } from './fuzz/commands.js';

export interface CommandFuzzOptions {
  readonly count: number;
  readonly seed: number;
  readonly timeoutMs: number;
  readonly commands?: readonly CommandName[];
  readonly engines?: readonly string[];
  /** Run only these programs of the seed (the others are generated and skipped). */
  readonly only?: readonly number[];
  readonly box?: BoxOptions;
  /** Stop generating programs once this many milliseconds have passed (a shard of a long run). */
  readonly forMs?: number;
  /** Called after each program. */
  readonly onProgram?: (index: number, source: string, report: ProgramReport) => void;
}

export interface CommandFuzzSummary {
  readonly programs: number;
  /** Command → answer → programs. */
  readonly tally: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** Command → milliseconds over all programs, and the most one program took. */
  readonly millis: ReadonlyMap<string, number>;
  readonly maxMillis: ReadonlyMap<string, number>;
  /** Command → claims checked, and runs that could have refuted one. */
  readonly seen: ReadonlyMap<string, { readonly claims: number; readonly runs: number }>;
  readonly disagreeing: readonly { readonly index: number; readonly source: string; readonly report: ProgramReport }[];
  readonly disagreements: number;
  /** Programs with a box run that fails an assertion / that never returns within the step limit. */
  readonly failingPrograms: number;
  readonly loopingPrograms: number;
  readonly elapsedMs: number;
}

export async function fuzzCommands(options: CommandFuzzOptions): Promise<CommandFuzzSummary> {
  const started = Date.now();
  const generator = new CommandProgramGenerator(mulberry32(options.seed));
  const tally = new Map<string, Map<string, number>>();
  const millis = new Map<string, number>();
  const maxMillis = new Map<string, number>();
  const seen = new Map<string, { claims: number; runs: number }>();
  const disagreeing: { index: number; source: string; report: ProgramReport }[] = [];
  let programs = 0;
  let disagreements = 0;
  let failingPrograms = 0;
  let loopingPrograms = 0;
  for (let k = 0; k < options.count; k++) {
    if (options.forMs !== undefined && Date.now() - started >= options.forMs) break;
    const generated = generator.program();
    if (options.only && !options.only.includes(k)) continue;
    const program = parseProgram(generated.source, `cmd-${options.seed}-${k}.c`);
    const report = await fuzzProgram(program, {
      timeoutMs: options.timeoutMs,
      ...(options.commands ? { commands: options.commands } : {}),
      ...(options.engines ? { engines: options.engines } : {}),
      box: { seed: options.seed * 100_003 + k, ...options.box },
    });
    programs++;
    if (report.box.failing > 0) failingPrograms++;
    if (report.box.cutOff > 0) loopingPrograms++;
    countAnswers({ tally, millis, maxMillis, seen }, report.answers);
    if (report.disagreements.length > 0) {
      disagreements += report.disagreements.length;
      disagreeing.push({ index: k, source: generated.source, report });
    }
    options.onProgram?.(k, generated.source, report);
  }
  return { programs, tally, millis, maxMillis, seen, disagreeing, disagreements, failingPrograms, loopingPrograms, elapsedMs: Date.now() - started };
}

// ---------------------------------------------------------------------------------------------
// Needles: programs whose bug needs one specific input.

export interface NeedleFuzzOptions {
  readonly count: number;
  readonly seed: number;
  readonly timeoutMs: number;
  /** verify's portfolio jobs (default: the command's default, DEFAULT_JOBS). */
  readonly jobs?: number;
  /** A subset of verify and cex (default both). */
  readonly commands?: readonly ('verify' | 'cex')[];
  readonly families?: readonly NeedleFamily[];
  readonly only?: readonly number[];
  readonly forMs?: number;
  readonly onProgram?: (index: number, needle: Needle, report: ProgramReport) => void;
}

export interface NeedleTally {
  programs: number;
  /** verify answered unsafe with a counterexample that fails when replayed. */
  found: number;
  /** cex gave at least one failing condition, none of them wrong. */
  conditions: number;
}

export interface NeedleSummary {
  readonly programs: number;
  readonly commands: readonly string[];
  readonly total: NeedleTally;
  readonly byFamily: ReadonlyMap<NeedleFamily, NeedleTally>;
  /** Command → answer → programs. */
  readonly tally: ReadonlyMap<string, ReadonlyMap<string, number>>;
  readonly millis: ReadonlyMap<string, number>;
  readonly maxMillis: ReadonlyMap<string, number>;
  /** Command → claims checked, and runs that could have refuted one. */
  readonly seen: ReadonlyMap<string, { readonly claims: number; readonly runs: number }>;
  readonly disagreeing: readonly { readonly index: number; readonly needle: Needle; readonly report: ProgramReport }[];
  readonly disagreements: number;
  readonly elapsedMs: number;
}

export async function fuzzNeedles(options: NeedleFuzzOptions): Promise<NeedleSummary> {
  const started = Date.now();
  const generator = new NeedleGenerator(mulberry32(options.seed));
  const commands = options.commands ?? ['verify', 'cex'];
  const total: NeedleTally = { programs: 0, found: 0, conditions: 0 };
  const byFamily = new Map<NeedleFamily, NeedleTally>();
  const tally = new Map<string, Map<string, number>>();
  const millis = new Map<string, number>();
  const maxMillis = new Map<string, number>();
  const seen = new Map<string, { claims: number; runs: number }>();
  const disagreeing: { index: number; needle: Needle; report: ProgramReport }[] = [];
  let disagreements = 0;
  for (let k = 0; k < options.count; k++) {
    if (options.forMs !== undefined && Date.now() - started >= options.forMs) break;
    const needle = generator.program(options.families);
    if (options.only && !options.only.includes(k)) continue;
    const program = parseProgram(needle.source, `needle-${options.seed}-${k}.c`);
    // The runs claims are checked on: every failing input the generator knows, and the passing ones it gives.
    const runs = streamBox(program, program.entry, [...needle.failing, ...needle.passing]);
    const mismatches = needleMismatches(needle, runs);
    const checked = await fuzzProgram(program, { commands, timeoutMs: options.timeoutMs, runs, plainVerify: { jobs: options.jobs ?? DEFAULT_JOBS() } });
    const report: ProgramReport = { ...checked, disagreements: [...mismatches, ...checked.disagreements] };
    const family = byFamily.get(needle.family) ?? { programs: 0, found: 0, conditions: 0 };
    byFamily.set(needle.family, family);
    const wrong = (command: string): boolean => report.disagreements.some((d) => d.command === command);
    const answer = (command: string): string | undefined => report.answers.find((a) => a.command === command)?.answer;
    for (const t of [total, family]) {
      t.programs++;
      if (answer('verify') === 'unsafe' && !wrong('verify')) t.found++;
      if (answer('cex') === 'found' && !wrong('cex')) t.conditions++;
    }
    countAnswers({ tally, millis, maxMillis, seen }, report.answers);
    if (report.disagreements.length > 0) {
      disagreements += report.disagreements.length;
      disagreeing.push({ index: k, needle, report });
    }
    options.onProgram?.(k, needle, report);
  }
  return { programs: total.programs, commands, total, byFamily, tally, millis, maxMillis, seen, disagreeing, disagreements, elapsedMs: Date.now() - started };
}

function percent(n: number, of: number): string {
  return of > 0 ? `${((100 * n) / of).toFixed(1)} %` : '-';
}

export function formatNeedleSummary(s: NeedleSummary): string {
  const lines = [`needles: ${s.programs} programs in ${(s.elapsedMs / 1000).toFixed(1)} s`];
  const rates = (t: NeedleTally): string => [
    ...(s.commands.includes('verify') ? [`verify found ${t.found} (${percent(t.found, t.programs)})`] : []),
    ...(s.commands.includes('cex') ? [`cex gave a condition for ${t.conditions} (${percent(t.conditions, t.programs)})`] : []),
  ].join(', ');
  lines.push(`  bugs: ${s.programs}; ${rates(s.total)}`);
  for (const family of NEEDLE_FAMILIES) {
    const t = s.byFamily.get(family);
    if (t) lines.push(`    ${family}: ${t.programs}; ${rates(t)}`);
  }
  lines.push(...answerLines(s));
  lines.push(`wrong answers: ${s.disagreements} in ${s.disagreeing.length} program${s.disagreeing.length === 1 ? '' : 's'}`);
  for (const d of s.disagreeing) for (const x of d.report.disagreements) lines.push(`  program ${d.index} [${x.kind}] ${x.command}: ${x.message}`);
  return lines.join('\n');
}

/** Per command: its answers, its time, the claims checked (both kinds of program share it). */
interface AnswerCounts {
  readonly tally: Map<string, Map<string, number>>;
  readonly millis: Map<string, number>;
  readonly maxMillis: Map<string, number>;
  readonly seen: Map<string, { claims: number; runs: number }>;
}

function countAnswers(t: AnswerCounts, answers: ProgramReport['answers']): void {
  for (const a of answers) {
    const byAnswer = t.tally.get(a.command) ?? new Map<string, number>();
    byAnswer.set(a.answer, (byAnswer.get(a.answer) ?? 0) + 1);
    t.tally.set(a.command, byAnswer);
    t.millis.set(a.command, (t.millis.get(a.command) ?? 0) + a.millis);
    t.maxMillis.set(a.command, Math.max(t.maxMillis.get(a.command) ?? 0, a.millis));
    const c = t.seen.get(a.command) ?? { claims: 0, runs: 0 };
    t.seen.set(a.command, { claims: c.claims + a.seen.claims, runs: c.runs + a.seen.runs });
  }
}

function answerLines(s: Pick<CommandFuzzSummary, 'tally' | 'millis' | 'maxMillis' | 'seen'>): string[] {
  return [...s.tally].map(([command, byAnswer]) => {
    const answered = [...byAnswer.values()].reduce((a, b) => a + b, 0);
    const mean = answered > 0 ? ((s.millis.get(command) ?? 0) / answered / 1000).toFixed(1) : '-';
    const checked = s.seen.get(command) ?? { claims: 0, runs: 0 };
    return `  ${command}: ${[...byAnswer].map(([a, n]) => `${a} ${n}`).join(', ')} (mean ${mean} s, most ${((s.maxMillis.get(command) ?? 0) / 1000).toFixed(1)} s; ${checked.claims} claims checked against ${checked.runs} runs)`;
  });
}

/** The saved case: the disagreements and every answer in a leading comment, then the program.
 * `flags` are the command line's options besides the seed and the program (`--programs needles`). */
export function caseFile(seed: number, index: number, source: string, report: ProgramReport, flags = ''): string {
  const line = (d: Disagreement): string => `//   [${d.kind}] ${d.command}: ${d.message.replace(/\n/g, ' ')}`;
  const header = [
    `// command-fuzz disagreement (seed ${seed}, program ${index}; node dist/scripts/command-fuzz.js${flags ? ` ${flags}` : ''} --seed ${seed} --count ${index + 1} --only ${index} runs it again):`,
    ...report.disagreements.map(line),
    `// box: ${report.box.runs} runs, ${report.box.failing} failing, ${report.box.returning} returning, ${report.box.cutOff} cut off`,
    '// answers:',
    ...report.answers.map((a) => `//   ${a.command}: ${a.answer} — ${a.detail.replace(/\n/g, ' ')} (${a.millis} ms)`),
  ];
  return `${header.join('\n')}\n${source}`;
}

export function formatSummary(s: CommandFuzzSummary): string {
  const minutes = s.elapsedMs / 60_000;
  const lines = [
    `programs: ${s.programs} in ${(s.elapsedMs / 1000).toFixed(1)} s (${minutes > 0 ? (s.programs / minutes).toFixed(1) : '-'} programs/minute)`,
    `  box: ${s.failingPrograms} programs with a failing run, ${s.loopingPrograms} with a run cut off by the step limit`,
  ];
  lines.push(...answerLines(s));
  lines.push(`disagreements: ${s.disagreements} in ${s.disagreeing.length} program${s.disagreeing.length === 1 ? '' : 's'}`);
  for (const d of s.disagreeing) for (const x of d.report.disagreements) lines.push(`  program ${d.index} [${x.kind}] ${x.command}: ${x.message}`);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const cli = new Command('command-fuzz')
    .description('random functions with loops through every command, each certified claim checked by brute force over a box of inputs')
    .option('--count <n>', 'programs to generate', '20')
    .option('--seed <s>', 'seed of the program generator', '1')
    .option('--timeout <seconds>', 'bound per command and program', '3')
    .option('--commands <names>', `comma-separated subset of ${COMMANDS.join(',')}`)
    .option('--engines <names>', `verify engines, comma-separated subset of ${verifyEngines().join(',')}`)
    .option('--only <k,...>', 'run only these programs of the seed (indices from 0, comma-separated)')
    .option('--out <dir>', 'where disagreeing programs are saved', 'scripts/fuzz-cases')
    .option('--minutes <m>', 'start no program after this many minutes (the summary covers the programs run)')
    .option('--quiet', 'no line per program')
    .option('--programs <kind>', "'functions' (random functions with loops, every command) or 'needles' (whole programs whose bug needs one specific input: verify and cex)", 'functions')
    .option('--families <names>', `needles: comma-separated subset of ${NEEDLE_FAMILIES.join(',')}`)
    .option('--jobs <j>', `needles: verify's portfolio jobs (default as verify's: ${DEFAULT_JOBS()} here)`)
    .parse();
  const opts = cli.opts<{ count: string; seed: string; timeout: string; commands?: string; engines?: string; only?: string; minutes?: string; out: string; quiet?: boolean; programs: string; families?: string; jobs?: string }>();
  const count = Number(opts.count);
  const seed = Number(opts.seed);
  const timeoutMs = Number(opts.timeout) * 1000;
  const only = opts.only?.split(',').map(Number);
  const forMs = opts.minutes === undefined ? undefined : Number(opts.minutes) * 60_000;
  if (forMs !== undefined && !(forMs > 0)) {
    process.stderr.write('command-fuzz: --minutes takes a positive number\n');
    return 3;
  }
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(seed) || !(timeoutMs > 0) || (only && !only.every((k) => Number.isInteger(k) && k >= 0))) {
    process.stderr.write('command-fuzz: --count, --seed and --only take integers, --timeout a positive number\n');
    return 3;
  }
  if (opts.programs !== 'functions' && opts.programs !== 'needles') {
    process.stderr.write(`command-fuzz: --programs takes 'functions' or 'needles', not '${opts.programs}'\n`);
    return 3;
  }
  if (opts.programs === 'needles') return needles(opts, { count, seed, timeoutMs, only, forMs });
  if (opts.families !== undefined || opts.jobs !== undefined) {
    process.stderr.write('command-fuzz: --families and --jobs are options of --programs needles\n');
    return 3;
  }
  const commands = opts.commands?.split(',').map((c) => c.trim()) as CommandName[] | undefined;
  const unknownCommand = commands?.find((c) => !COMMANDS.includes(c));
  const engines = opts.engines?.split(',').map((e) => e.trim());
  const unknownEngine = engines?.find((e) => !verifyEngines().includes(e));
  if (unknownCommand || unknownEngine) {
    process.stderr.write(`command-fuzz: unknown ${unknownCommand ? `command '${unknownCommand}' (${COMMANDS.join(', ')})` : `engine '${unknownEngine}' (${verifyEngines().join(', ')})`}\n`);
    return 3;
  }
  const summary = await fuzzCommands({
    count, seed, timeoutMs,
    ...(commands ? { commands } : {}),
    ...(engines ? { engines } : {}),
    ...(only ? { only } : {}),
    ...(forMs !== undefined ? { forMs } : {}),
    onProgram: (k, source, report) => {
      if (!opts.quiet) {
        const answers = report.answers.map((a) => `${a.command}=${a.answer}`).join(' ');
        const seconds = report.answers.reduce((t, a) => t + a.millis, 0) / 1000;
        process.stdout.write(`#${k} ${seconds.toFixed(1)}s ${answers}\n`);
      }
      if (report.disagreements.length > 0) {
        mkdirSync(opts.out, { recursive: true });
        const file = join(opts.out, `cmd-${seed}-${k}.c`);
        writeFileSync(file, caseFile(seed, k, source, report));
        process.stdout.write(`DISAGREEMENT ${file}: ${report.disagreements.map((d) => `[${d.kind}] ${d.command}: ${d.message}`).join('; ')}\n`);
      }
    },
  });
  process.stdout.write(`${formatSummary(summary)}\n`);
  return summary.disagreements > 0 ? 1 : 0;
}

async function needles(
  opts: { commands?: string; engines?: string; families?: string; jobs?: string; out: string; quiet?: boolean },
  common: { count: number; seed: number; timeoutMs: number; only: number[] | undefined; forMs: number | undefined },
): Promise<number> {
  const commands = (opts.commands ?? 'verify,cex').split(',').map((c) => c.trim());
  const families = opts.families?.split(',').map((f) => f.trim());
  const jobs = opts.jobs === undefined ? undefined : Number(opts.jobs);
  const badCommand = commands.find((c) => c !== 'verify' && c !== 'cex');
  const badFamily = families?.find((f) => !(NEEDLE_FAMILIES as readonly string[]).includes(f));
  if (opts.engines !== undefined || badCommand !== undefined || badFamily !== undefined || (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1 && jobs <= MAX_JOBS()))) {
    process.stderr.write(`command-fuzz: with --programs needles, --commands takes verify and cex, --families ${NEEDLE_FAMILIES.join(', ')}, --jobs 1..${MAX_JOBS()}, and verify runs as the command does (no --engines)\n`);
    return 3;
  }
  const { count, seed, timeoutMs, only, forMs } = common;
  const summary = await fuzzNeedles({
    count, seed, timeoutMs,
    commands: commands as ('verify' | 'cex')[],
    ...(families ? { families: families as NeedleFamily[] } : {}),
    ...(jobs !== undefined ? { jobs } : {}),
    ...(only ? { only } : {}),
    ...(forMs !== undefined ? { forMs } : {}),
    onProgram: (k, needle, report) => {
      if (!opts.quiet) {
        const answers = report.answers.map((a) => `${a.command}=${a.answer}`).join(' ');
        const seconds = report.answers.reduce((t, a) => t + a.millis, 0) / 1000;
        process.stdout.write(`#${k} ${needle.family}/${needle.shape} ${seconds.toFixed(1)}s ${answers}\n`);
      }
      if (report.disagreements.length > 0) {
        mkdirSync(opts.out, { recursive: true });
        const file = join(opts.out, `needle-${seed}-${k}.c`);
        const flags = ['--programs needles', ...(opts.families ? [`--families ${opts.families}`] : []), ...(opts.commands ? [`--commands ${opts.commands}`] : []), `--timeout ${timeoutMs / 1000}`].join(' ');
        writeFileSync(file, caseFile(seed, k, needle.source, report, flags));
        process.stdout.write(`WRONG ANSWER ${file}: ${report.disagreements.map((d) => `[${d.kind}] ${d.command}: ${d.message}`).join('; ')}\n`);
      }
    },
  });
  process.stdout.write(`${formatNeedleSummary(summary)}\n`);
  return summary.disagreements > 0 ? 1 : 0;
}

if (process.argv[1]?.endsWith('command-fuzz.js')) {
  main().then(async (code) => {
    await shutdownZ3();
    process.exit(code);
  }, async (e: unknown) => {
    process.stderr.write(`command-fuzz: ${e instanceof Error ? e.stack : String(e)}\n`);
    await shutdownZ3();
    process.exit(4);
  });
}
