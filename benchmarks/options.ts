// Command-line options of the benchmark harness.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { splitCommand } from './cli-process.js';
import { CUTSETS, parseIndexCondition, TASK_PROPERTIES, type Cutset, type IndexCondition, type TaskProperty } from './tasks.js';
import { ENGINE_NAMES } from '../lib/engines/types.js';

/** The registry's engines: `constraints` runs as `farkas verify` (its options and output), the others
 * through `farkas check --engine NAME`. */
export const HARNESS_ENGINES = ENGINE_NAMES;

/** The repository root, from the compiled location dist/benchmarks/options.js. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEFAULT_SUITE = join(REPO_ROOT, 'benchmarks');
export const DEFAULT_RESULTS_DIR = join(REPO_ROOT, 'benchmarks', 'results');
/** The command users run as `farkas` (package.json's bin: the bundled command line). */
export const DEFAULT_CLI = ['node', join(REPO_ROOT, 'dist', 'bin', 'main.js')];
/** Environment variable naming the command that stands for `farkas` (overridden by --cli). */
export const CLI_ENV = 'FARKAS_BENCH_CLI';

export interface HarnessOptions {
  readonly suites: readonly string[];
  readonly indexFiles: readonly string[];
  readonly borderline: boolean;
  readonly timeoutSeconds: number;
  readonly killGraceSeconds: number;
  readonly backend?: string;
  readonly template?: string;
  /** Replaces the cut-sets of every task when given. */
  readonly cutsets?: readonly Cutset[];
  readonly jobs: number;
  /** `farkas verify --jobs` (the portfolio's worker threads per run). */
  readonly verifyJobs?: number;
  readonly filter?: string;
  /** Conditions on INDEX.tsv columns that --index rows must meet. */
  readonly where?: readonly IndexCondition[];
  readonly limit?: number;
  /** Markdown report path; the JSON goes beside it. Absent: a timestamped file in benchmarks/results/. */
  readonly out?: string;
  readonly json: boolean;
  readonly list: boolean;
  readonly cli: readonly string[];
  /** Also run Z3's Horn engine (Spacer) on the CHC export of each task and compare: z3-solver's WASM
   * build, or native z3 (`z3 -T:N`, the Debian package). */
  readonly spacer?: 'wasm' | 'native';
  /** Also solve each task through its Horn-clause export with farkas's CHC front end (via-chc.ts). */
  readonly viaChc?: boolean;
  /** Engines to run each task with (default: the constraint engine only). */
  readonly engines?: readonly string[];
  /** The SV-COMP property checked (its expected verdict, `farkas verify --property`); default unreach-call. */
  readonly property?: TaskProperty;
}

export type ParseResult = { readonly options: HarnessOptions } | { readonly exitCode: number; readonly output: string };

function positiveNumber(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim()) || !(Number(text) > 0)) throw new InvalidArgumentError('expected a positive number of seconds');
  return Number(text);
}

function nonNegativeNumber(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text.trim())) throw new InvalidArgumentError('expected a non-negative number of seconds');
  return Number(text);
}

function whereCondition(text: string, previous: IndexCondition[]): IndexCondition[] {
  const c = parseIndexCondition(text);
  if (!c) throw new InvalidArgumentError('expected COLUMN=VALUE or COLUMN!=VALUE');
  return [...previous, c];
}

function positiveInteger(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new InvalidArgumentError('expected a positive integer');
  return Number(text);
}

function cutsetList(text: string): Cutset[] {
  const list = text.split(',').map((c) => c.trim()).filter((c) => c !== '');
  const bad = list.find((c) => !CUTSETS.includes(c as Cutset));
  if (list.length === 0 || bad !== undefined) throw new InvalidArgumentError(`expected a comma-separated list of ${CUTSETS.join(', ')}`);
  return [...new Set(list as Cutset[])];
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

const HELP_AFTER = `
Tasks:
  A suite is a folder, walked recursively. It holds either this project's benchmarks (NAME.c with a
  NAME.expect.yaml sidecar: verdict safe|unsafe, optional function, source, notes, cutsets) or SV-COMP
  tasks (.yml files whose input_files names the program; the expected verdict is that of the property
  whose property_file ends in unreach-call.prp, or in PROPERTY.prp with --property no-overflow|termination;
  other tasks are skipped). Folders named _borderline are
  skipped unless --borderline. --index FILE takes the task list from an INDEX.tsv (columns folder, name,
  expected_verdict; task files <folder>/<name>.yml beside the index); --where COLUMN!=VALUE (or =) keeps
  only its rows that meet every condition, e.g. --where has_functions!=none. Default suite: benchmarks/.

Each task runs once per cut-set (sidecar 'cutsets', default [paths]; SV-COMP tasks: paths) as
  farkas verify FILE --json --timeout S --cutset C [--function F] [--backend B] [--template T] [--jobs J]
  [--property no-overflow]
in a child process, which is killed (with everything it started) if it has not answered
--kill-grace seconds after the timeout.

With --engine NAME (an interpolation engine) each task runs once as
  farkas check FILE --engine NAME --json --timeout S [--function F]
and the cut-set column shows the engine's name; --engine all runs the constraint engine and every
interpolation engine and ends with one totals line per engine.

Verdicts:
  correct   safe on an expected-safe task, unsafe on an expected-unsafe task
  -         unknown, killed at the timeout, or rejected (exit 3 with a diagnostic positioned in the
            program or 'unsupported:'): not wrong
  WRONG     safe on an expected-unsafe task or unsafe on an expected-safe one (printed as !!! WRONG VERDICT)
  ERROR     internal error (exit 4), crash, malformed output, an uncertified 'safe', or an exit 3
            that is not about the program (bad option, unknown function: the harness or task is wrong)

Output: a table as runs finish, then totals; the table is saved as Markdown, and every run's record
(with the CLI's JSON) as JSON, under benchmarks/results/ (timestamped) or at --out FILE (JSON beside
it as FILE.json, or with .md replaced by .json).

Exit status: 0 when nothing was wrong, 1 on any WRONG verdict or ERROR, 3 on bad usage or bad task
metadata.

Examples:
  npm run bench
  node dist/benchmarks/harness.js --timeout 20 --jobs 2
  node dist/benchmarks/harness.js ../shared/bench/svcomp --filter loop-lit --timeout 30
  node dist/benchmarks/harness.js --index ../shared/bench/svcomp/INDEX.tsv --limit 20
  node dist/benchmarks/harness.js --cutset headers --backend z3 --out /tmp/headers.md`;

function buildCommand(): Command {
  return new Command()
    .name('harness')
    .usage('[SUITE ...] [options]')
    .description('Run farkas verify on benchmark programs with known verdicts and tabulate the results')
    .argument('[suites...]', 'folders of benchmark tasks (default: the repository\'s benchmarks/)')
    .option('--index <file>', 'take SV-COMP tasks from an INDEX.tsv (repeatable)', collect)
    .option('--borderline', 'also run tasks under _borderline folders')
    .option('--timeout <seconds>', 'timeout passed to farkas verify', positiveNumber, 60)
    .option('--kill-grace <seconds>', 'kill a run this long after its timeout', nonNegativeNumber, 5)
    .option('--backend <spec>', "SAT back end passed to farkas: auto (its default), minisat, z3 or dimacs:CMD")
    .option('--template <name>', 'template schedule passed to farkas (name from templates/ or a YAML file)')
    .addOption(new Option('--cutset <list>', 'run every task with these cut-sets instead of its own (paths,headers)').argParser(cutsetList))
    .option('--jobs <n>', 'runs in parallel', positiveInteger, 1)
    .option('--verify-jobs <n>', 'passed to farkas verify as --jobs: worker threads of its portfolio per run (default: farkas\'s own, the number of cores)', positiveInteger)
    .option('--where <condition>', "only --index rows whose COLUMN=VALUE or COLUMN!=VALUE (repeatable), e.g. has_functions!=none", whereCondition, [])
    .option('--filter <substring>', 'only tasks whose id contains SUBSTRING (case-insensitive)')
    .option('--limit <n>', 'only the first N tasks (after --filter)', positiveInteger)
    .option('--out <file>', 'write the Markdown report to FILE (and the JSON beside it)')
    .option('--json', 'print the JSON report on stdout (the table goes to stderr)')
    .addOption(new Option('--engine <name>', "engine: 'constraints' (farkas verify, default), an interpolation engine (farkas check --engine NAME), or 'all' (every one, side by side)").choices([...HARNESS_ENGINES, 'all']))
    .addOption(new Option('--spacer [build]', "also run z3's Horn engine (Spacer) on each task's CHC export (farkas verify --emit chc), same timeout, and compare verdicts and times: 'wasm' (z3-solver, the default) or 'native' (z3 on PATH, timed alone)").choices(['wasm', 'native']).preset('wasm'))
    .option('--via-chc', "also solve each task through its Horn-clause export (farkas verify --emit chc, then farkas verify on the .smt2: the CHC front end), listed under the cut-set 'chc', and compare the two front ends' verdicts")
    .addOption(new Option('--property <name>', "SV-COMP property of the tasks: its expected verdict is the truth, and farkas verify gets --property NAME").choices([...TASK_PROPERTIES]).default('unreach-call'))
    .option('--list', 'list the selected tasks and exit without running them')
    .option('--cli <command>', `command standing for farkas (default: $${CLI_ENV}, else node dist/bin/main.js)`)
    .addHelpText('after', HELP_AFTER)
    .helpOption('-h, --help', 'show this help')
    .exitOverride();
}

interface RawOptions {
  index?: string[];
  borderline?: boolean;
  timeout: number;
  killGrace: number;
  backend?: string;
  template?: string;
  cutset?: Cutset[];
  jobs: number;
  verifyJobs?: number;
  filter?: string;
  where: IndexCondition[];
  limit?: number;
  out?: string;
  json?: boolean;
  list?: boolean;
  cli?: string;
  spacer?: 'wasm' | 'native';
  viaChc?: boolean;
  engine?: string;
  property: TaskProperty;
}

/** Parses the harness arguments (without `node harness.js`); help and usage errors come back as text. */
export function parseHarnessArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ParseResult {
  const command = buildCommand();
  let output = '';
  command.configureOutput({ writeOut: (s) => (output += s), writeErr: (s) => (output += s) });
  try {
    command.parse([...argv], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      const help = e.code === 'commander.helpDisplayed' || e.code === 'commander.help';
      return { exitCode: help ? 0 : 3, output };
    }
    throw e;
  }
  const raw = command.opts<RawOptions>();
  const cliText = raw.cli ?? env[CLI_ENV];
  let cli = DEFAULT_CLI;
  if (cliText !== undefined && cliText.trim() !== '') {
    try {
      cli = splitCommand(cliText);
    } catch (e) {
      return { exitCode: 3, output: `error: --cli: ${(e as Error).message}\n` };
    }
  }
  if (raw.viaChc && raw.property !== 'unreach-call') return { exitCode: 3, output: `error: --via-chc: Horn clauses state reachability only, not --property ${raw.property}\n` };
  const suites = command.processedArgs[0] as string[];
  const indexFiles = raw.index ?? [];
  return {
    options: {
      suites: suites.length === 0 && indexFiles.length === 0 ? [DEFAULT_SUITE] : suites,
      indexFiles,
      borderline: raw.borderline === true,
      timeoutSeconds: raw.timeout,
      killGraceSeconds: raw.killGrace,
      jobs: raw.jobs,
      json: raw.json === true,
      list: raw.list === true,
      cli,
      ...(raw.backend !== undefined ? { backend: raw.backend } : {}),
      ...(raw.template !== undefined ? { template: raw.template } : {}),
      ...(raw.verifyJobs !== undefined ? { verifyJobs: raw.verifyJobs } : {}),
      ...(raw.cutset !== undefined ? { cutsets: raw.cutset } : {}),
      ...(raw.filter !== undefined ? { filter: raw.filter } : {}),
      ...(raw.where.length > 0 ? { where: raw.where } : {}),
      ...(raw.limit !== undefined ? { limit: raw.limit } : {}),
      ...(raw.out !== undefined ? { out: raw.out } : {}),
      ...(raw.spacer !== undefined ? { spacer: raw.spacer } : {}),
      ...(raw.viaChc ? { viaChc: true } : {}),
      ...(raw.engine !== undefined ? { engines: raw.engine === 'all' ? [...HARNESS_ENGINES] : [raw.engine] } : {}),
      ...(raw.property !== 'unreach-call' ? { property: raw.property } : {}),
    },
  };
}
