// The benchmark run: select tasks, run each (× cut-set) through the CLI, print rows as they finish,
// then the totals, and save the Markdown table and the raw JSON.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { runCli } from './cli-process.js';
import { toRecord, type RunRecord } from './classify.js';
import { DEFAULT_CLI, DEFAULT_RESULTS_DIR, REPO_ROOT, type HarnessOptions } from './options.js';
import { consoleHeader, consoleRow, engineTotalsLines, markdownReport, runFailed, totals, totalsLines } from './report.js';
import { compare, comparisonLines, runSpacer, spacerMarkdown, spacerRow, type SpacerRecord } from './spacer.js';
import { compareFrontEnds, frontEndLines, runViaChc, VIA_CHC } from './via-chc.js';
import { discoverTasks, tasksFromIndex, TaskError, type BenchTask, type Cutset, type Discovery } from './tasks.js';

export interface HarnessIO {
  /** Standard output. */
  readonly out: (text: string) => void;
  /** Standard error. */
  readonly err: (text: string) => void;
  readonly now?: () => Date;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 3;

interface Source {
  readonly label: string;
  readonly discover: () => Discovery;
}

/** Gathers the tasks of every suite and index; ids get the source's name as prefix when there are several. */
export function selectTasks(opts: HarnessOptions): { tasks: BenchTask[]; skipped: Discovery['skipped'] } {
  const sources: Source[] = [
    ...opts.suites.map((s) => ({ label: basename(resolve(s)), discover: () => discoverTasks(s, { borderline: opts.borderline, ...(opts.property ? { property: opts.property } : {}) }) })),
    ...opts.indexFiles.map((f) => ({ label: basename(dirname(resolve(f))), discover: () => tasksFromIndex(f, opts.where ?? [], opts.property) })),
  ];
  const tasks: BenchTask[] = [];
  const skipped: Discovery['skipped'] = [];
  for (const source of sources) {
    const found = source.discover();
    const prefix = sources.length > 1 ? `${source.label}/` : '';
    tasks.push(...found.tasks.map((t) => ({ ...t, id: prefix + t.id, ...(opts.cutsets ? { cutsets: opts.cutsets } : {}) })));
    skipped.push(...found.skipped);
  }
  const needle = opts.filter?.toLowerCase();
  const filtered = needle === undefined ? tasks : tasks.filter((t) => t.id.toLowerCase().includes(needle));
  return { tasks: opts.limit === undefined ? filtered : filtered.slice(0, opts.limit), skipped };
}

interface PlannedRun {
  readonly task: BenchTask;
  /** A cut-set for the constraint engine, else the interpolation engine's name. */
  readonly cutset: Cutset | string;
  readonly engine: string;
}

const CONSTRAINTS = 'constraints';

/** Runs `work` over `items` with at most `jobs` in flight, calling `done` as each finishes. */
async function pool<T, R>(items: readonly T[], jobs: number, work: (item: T) => Promise<R>, done: (result: R) => void): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
      done(results[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, worker));
  return results;
}

function timestamp(d: Date): string {
  return d.toISOString().replace(/[:.]/g, '-');
}

function gitCommit(): string | undefined {
  try {
    // Read-only: never anything that could touch the index.
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Relative to the working directory when below it, else absolute. */
function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel.startsWith('..') ? path : rel;
}

function reportPaths(opts: HarnessOptions, started: Date): { markdown: string; json: string } {
  if (opts.out !== undefined) {
    const markdown = resolve(opts.out);
    return { markdown, json: markdown.endsWith('.md') ? markdown.slice(0, -3) + '.json' : markdown + '.json' };
  }
  const stem = join(DEFAULT_RESULTS_DIR, `bench-${timestamp(started)}`);
  return { markdown: `${stem}.md`, json: `${stem}.json` };
}

function describeRun(opts: HarnessOptions, started: Date, commit: string | undefined): string[] {
  const shown = (p: string): string => relative(process.cwd(), resolve(p)) || '.';
  const lines = [
    `Date: ${started.toISOString()}${commit ? `, farkas commit ${commit}` : ''}`,
    `Suites: ${[...opts.suites.map(shown), ...opts.indexFiles.map((f) => `index ${shown(f)}`)].join(', ')}${opts.borderline ? ' (with _borderline)' : ''}`,
    `Options: timeout ${opts.timeoutSeconds} s, backend ${opts.backend ?? 'default'}, template ${opts.template ?? 'default'}${opts.cutsets ? `, cut-sets ${opts.cutsets.join(',')}` : ''}, jobs ${opts.jobs}${opts.verifyJobs !== undefined ? `, verify jobs ${opts.verifyJobs}` : ''}${opts.filter ? `, filter '${opts.filter}'` : ''}${opts.limit ? `, limit ${opts.limit}` : ''}${opts.property ? `, property ${opts.property}` : ''}`,
  ];
  if (opts.cli.join(' ') !== DEFAULT_CLI.join(' ')) lines.push(`CLI: ${opts.cli.join(' ')}`);
  return lines;
}

export async function runHarness(opts: HarnessOptions, io: HarnessIO): Promise<number> {
  const started = (io.now ?? (() => new Date()))();
  let selection: ReturnType<typeof selectTasks>;
  try {
    selection = selectTasks(opts);
  } catch (e) {
    if (e instanceof TaskError) {
      io.err(`harness: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
  const { tasks, skipped } = selection;
  // Without this, a missing build shows up as one identical error per run.
  const script = opts.cli[0] === 'node' ? opts.cli[1] : undefined;
  if (script !== undefined && !script.startsWith('-') && !existsSync(script)) {
    io.err(`harness: ${script} does not exist (build first: npx tsc -p .)\n`);
    return EXIT_USAGE;
  }
  if (tasks.length === 0) {
    io.err(`harness: no tasks selected${opts.filter ? ` (filter '${opts.filter}')` : ''}${skipped.length ? `; ${skipped.length} task files skipped` : ''}\n`);
    return EXIT_USAGE;
  }
  if (opts.list) {
    for (const t of tasks) io.out(`${t.id}\t${t.expected}\t${t.cutsets.join(',')}\t${displayPath(t.file)}\n`);
    return EXIT_OK;
  }

  const table = opts.json ? io.err : io.out;
  const engines = [...(opts.engines ?? [CONSTRAINTS]), ...(opts.viaChc ? [VIA_CHC] : [])];
  const runs: PlannedRun[] = tasks.flatMap((task) => engines.flatMap((engine) =>
    engine === CONSTRAINTS ? task.cutsets.map((cutset) => ({ task, cutset, engine })) : [{ task, cutset: engine, engine }]));
  table(`${tasks.length} tasks, ${runs.length} runs${skipped.length ? ` (${skipped.length} task files skipped: no unreach-call property or several input files)` : ''}\n`);
  table(consoleHeader() + '\n');
  const spacer = new Map<string, SpacerRecord>();
  const records = await pool(
    runs,
    opts.jobs,
    async ({ task, cutset, engine }): Promise<RunRecord> => {
      const record = engine === CONSTRAINTS ? await runFarkas(task, cutset as Cutset)
        : engine === VIA_CHC ? await runViaChc(task, { cli: opts.cli, timeoutSeconds: opts.timeoutSeconds, killGraceSeconds: opts.killGraceSeconds, ...(opts.verifyJobs !== undefined ? { verifyJobs: opts.verifyJobs } : {}) })
        : await runEngine(task, engine);
      // The baseline runs once per task, right after farkas in the same job slot (same load).
      if (opts.spacer && cutset === task.cutsets[0]) spacer.set(task.id, await runSpacer(task, opts.timeoutSeconds, opts.killGraceSeconds, opts.spacer));
      return record;
    },
    (record) => {
      table(consoleRow(record) + '\n');
      const s = spacer.get(record.task);
      if (s && record.cutset === tasks.find((t) => t.id === record.task)?.cutsets[0]) table(spacerRow(record.task, record, s) + '\n');
    },
  );
  async function runFarkas(task: BenchTask, cutset: Cutset): Promise<RunRecord> {
    const outcome = await runCli({
      command: opts.cli,
      file: task.file,
      cutset,
      timeoutSeconds: opts.timeoutSeconds,
      killGraceSeconds: opts.killGraceSeconds,
      ...(task.function !== undefined ? { function: task.function } : {}),
      ...(opts.backend !== undefined ? { backend: opts.backend } : {}),
      ...(opts.template !== undefined ? { template: opts.template } : {}),
      ...(opts.verifyJobs !== undefined ? { verifyJobs: opts.verifyJobs } : {}),
      ...(task.property !== undefined ? { property: task.property } : {}),
    });
    return toRecord(task, cutset, outcome, opts.timeoutSeconds);
  }

  async function runEngine(task: BenchTask, engine: string): Promise<RunRecord> {
    const args = ['check', task.file, '--engine', engine, '--json', '--timeout', String(opts.timeoutSeconds), ...(task.function !== undefined ? ['--function', task.function] : []), ...(task.property !== undefined ? ['--property', task.property] : [])];
    const outcome = await runCli({ command: opts.cli, file: task.file, cutset: 'headers', timeoutSeconds: opts.timeoutSeconds, killGraceSeconds: opts.killGraceSeconds, args });
    return toRecord(task, engine, outcome, opts.timeoutSeconds);
  }

  const sum = totals(records);
  table('\n' + totalsLines(sum).join('\n') + '\n');
  if (engines.length > 1) {
    table('\nper engine:\n' + engineTotalsLines(records, runs.map((r) => r.engine)).join('\n') + '\n');
  }
  const wrong = records.filter((r) => r.correctness === 'wrong');
  if (wrong.length > 0) {
    table(`\n!!! ${wrong.length} WRONG VERDICT${wrong.length > 1 ? 'S' : ''}: ${wrong.map((r) => `${r.task} (${r.cutset}): expected ${r.expected}, got ${r.status}`).join('; ')}\n`);
  }

  const frontEnds = opts.viaChc ? compareFrontEnds(records, (id) => tasks.find((t) => t.id === id)?.cutsets[0]) : undefined;
  if (frontEnds) table('\n' + frontEndLines(frontEnds).join('\n') + '\n');

  const comparison = opts.spacer ? compare(records, spacer) : undefined;
  if (comparison) {
    table('\n' + comparisonLines(comparison).join('\n') + '\n');
    const spacerWrong = [...spacer].filter(([, s]) => s.correctness === 'wrong');
    if (spacerWrong.length > 0) table(`!!! Spacer gave ${spacerWrong.length} wrong verdict(s): ${spacerWrong.map(([t, s]) => `${t}: ${s.verdict}`).join('; ')}\n`);
  }

  const commit = gitCommit();
  const paths = reportPaths(opts, started);
  const description = describeRun(opts, started, commit);
  const jsonReport = {
    generated: started.toISOString(),
    ...(commit ? { commit } : {}),
    options: { ...opts },
    totals: sum,
    records,
    ...(comparison ? { spacer: { comparison, runs: Object.fromEntries(spacer) } } : {}),
    ...(frontEnds ? { frontEnds } : {}),
  };
  mkdirSync(dirname(paths.markdown), { recursive: true });
  mkdirSync(dirname(paths.json), { recursive: true });
  const markdown = markdownReport(records, { title: 'farkas benchmark results', description });
  const perEngine = engines.length > 1 ? `\n## Per engine\n\n${engineTotalsLines(records, runs.map((r) => r.engine)).map((l) => `- ${l.trim()}`).join('\n')}\n` : '';
  const frontEndText = frontEnds ? `\n## Front ends\n\n${frontEndLines(frontEnds).map((l) => `- ${l.trim()}`).join('\n')}\n` : '';
  writeFileSync(paths.markdown, (comparison ? `${markdown}\n${spacerMarkdown(records, spacer, comparison)}` : markdown) + perEngine + frontEndText);
  writeFileSync(paths.json, JSON.stringify(jsonReport, null, 2) + '\n');
  table(`\nsaved ${displayPath(paths.markdown)} and ${displayPath(paths.json)}\n`);
  if (opts.json) io.out(JSON.stringify(jsonReport, null, 2) + '\n');
  return runFailed(sum) ? EXIT_FAILED : EXIT_OK;
}
