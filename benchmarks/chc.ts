#!/usr/bin/env node
// `node dist/benchmarks/chc.js`: farkas on a folder of Horn-clause tasks (CHC-COMP's format) listed in
// its INDEX.tsv (columns task, smt2, expected: true = sat, false = unsat), beside its peers in the same
// run, interleaved task by task so that a busy machine slows all of them alike: native z3 (`z3 -T:S
// FILE`, when `z3` is on PATH) and z3-solver's Spacer (WASM, in a child). Prints a Markdown table per
// family (the task path's first folder): solved sat/unsat, wrong, only farkas, only the peer, total
// time and the ratio of farkas's time to the peer's on the tasks both solve.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Command, InvalidArgumentError } from 'commander';
import { runCli } from './cli-process.js';
import { DEFAULT_CLI, REPO_ROOT } from './options.js';
import { SPACER_CHILD } from './spacer.js';
import { exactMedian } from './report.js';

export type ChcOutcome = 'sat' | 'unsat' | 'unknown' | 'error';

export interface ChcRun {
  readonly outcome: ChcOutcome;
  readonly millis: number;
  readonly detail?: string;
}

export interface ChcTaskRecord {
  readonly task: string;
  readonly family: string;
  readonly expected: 'sat' | 'unsat';
  readonly runs: Readonly<Record<string, ChcRun>>;
}

export interface ChcIndexRow {
  readonly task: string;
  readonly smt2: string;
  readonly expected: 'sat' | 'unsat';
}

export function readChcIndex(indexFile: string): ChcIndexRow[] {
  const lines = readFileSync(indexFile, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const header = lines[0]!.split('\t');
  const col = (name: string): number => {
    const k = header.indexOf(name);
    if (k < 0) throw new Error(`${indexFile}: no column '${name}'`);
    return k;
  };
  const [smt2, expected] = [col('smt2'), col('expected')];
  const task = header.indexOf('task') >= 0 ? col('task') : smt2;
  return lines.slice(1).map((l) => {
    const cells = l.split('\t');
    const e = cells[expected]!.trim();
    if (e !== 'true' && e !== 'false') throw new Error(`${indexFile}: expected verdict '${e}' is neither true nor false`);
    return { task: cells[task]!.replace(/\.(yml|smt2)$/, ''), smt2: join(dirname(indexFile), cells[smt2]!), expected: e === 'true' ? 'sat' : 'unsat' };
  });
}

/** The answer on a CHC-COMP tool's first line of output. */
export function firstLineAnswer(stdout: string): ChcOutcome {
  const first = stdout.split('\n').find((l) => l.trim() !== '')?.trim();
  return first === 'sat' || first === 'unsat' ? first : 'unknown';
}

async function runFarkas(cli: readonly string[], file: string, timeout: number, extra: readonly string[] = []): Promise<ChcRun> {
  const o = await runCli({ command: cli, file, cutset: 'headers', timeoutSeconds: timeout, killGraceSeconds: 5, args: ['verify', file, '--timeout', String(timeout), '--no-progress', ...extra] });
  if (o.killed) return { outcome: 'unknown', millis: o.wallMillis, detail: 'killed at the deadline' };
  if (o.exitCode === 4 || o.spawnError) return { outcome: 'error', millis: o.wallMillis, detail: (o.spawnError ?? o.stderr).trim().slice(0, 200) };
  const outcome = firstLineAnswer(o.stdout);
  const reason = o.stdout.split('\n').find((l) => l.startsWith('; ') && outcome === 'unknown')?.slice(2) ?? (o.exitCode === 3 ? o.stderr.trim().split('\n')[0] : undefined);
  return { outcome, millis: o.wallMillis, ...(reason ? { detail: reason.slice(0, 200) } : {}) };
}

async function runNativeZ3(file: string, timeout: number): Promise<ChcRun> {
  const o = await runCli({ command: ['z3'], file, cutset: 'headers', timeoutSeconds: timeout, killGraceSeconds: 5, args: [`-T:${timeout}`, file] });
  if (o.spawnError) return { outcome: 'error', millis: o.wallMillis, detail: o.spawnError };
  const outcome = firstLineAnswer(o.stdout);
  return { outcome, millis: o.wallMillis, ...(outcome === 'unknown' ? { detail: (o.stdout.trim() || o.stderr.trim()).split('\n')[0]!.slice(0, 200) } : {}) };
}

async function runWasmSpacer(file: string, timeout: number): Promise<ChcRun> {
  const o = await runCli({ command: ['node', SPACER_CHILD], file, cutset: 'headers', timeoutSeconds: timeout, killGraceSeconds: 5, args: [file, '--timeout', String(timeout)] });
  if (o.killed) return { outcome: 'unknown', millis: o.wallMillis, detail: 'killed at the deadline' };
  try {
    const parsed = JSON.parse(o.stdout.trim().split('\n').pop() ?? '') as { status?: string; reason?: string };
    const outcome: ChcOutcome = parsed.status === 'sat' || parsed.status === 'unsat' ? parsed.status : 'unknown';
    return { outcome, millis: o.wallMillis, ...(parsed.reason ? { detail: parsed.reason.slice(0, 200) } : {}) };
  } catch {
    return { outcome: 'error', millis: o.wallMillis, detail: o.stderr.trim().slice(0, 200) };
  }
}

export function nativeZ3Available(): boolean {
  return spawnSync('z3', ['--version'], { stdio: 'ignore' }).status === 0;
}

const solved = (r: ChcRun | undefined): boolean => r !== undefined && (r.outcome === 'sat' || r.outcome === 'unsat');

export interface FamilyRow {
  readonly family: string;
  readonly tasks: number;
  readonly tool: string;
  readonly sat: number;
  readonly unsat: number;
  readonly wrong: number;
  readonly errors: number;
  readonly only: number;
  readonly onlyPeer: number;
  readonly seconds: number;
  /** Median of farkas/peer time on the tasks both solve (null: none, or the tool is farkas). */
  readonly medianRatio: number | null;
}

/** One row per family and tool: what it solved and how it compares with farkas. */
export function familyRows(records: readonly ChcTaskRecord[], tools: readonly string[]): FamilyRow[] {
  const families = [...new Set(records.map((r) => r.family)), 'all'];
  const rows: FamilyRow[] = [];
  for (const family of families) {
    const rs = records.filter((r) => family === 'all' || r.family === family);
    for (const tool of tools) {
      const right = (r: ChcTaskRecord, t: string): boolean => solved(r.runs[t]) && r.runs[t]!.outcome === r.expected;
      const both = rs.filter((r) => right(r, 'farkas') && right(r, tool));
      rows.push({
        family,
        tasks: rs.length,
        tool,
        sat: rs.filter((r) => right(r, tool) && r.expected === 'sat').length,
        unsat: rs.filter((r) => right(r, tool) && r.expected === 'unsat').length,
        wrong: rs.filter((r) => solved(r.runs[tool]) && r.runs[tool]!.outcome !== r.expected).length,
        errors: rs.filter((r) => r.runs[tool]?.outcome === 'error').length,
        only: tool === 'farkas' ? 0 : rs.filter((r) => right(r, 'farkas') && !right(r, tool)).length,
        onlyPeer: tool === 'farkas' ? 0 : rs.filter((r) => right(r, tool) && !right(r, 'farkas')).length,
        seconds: rs.reduce((s, r) => s + (r.runs[tool]?.millis ?? 0), 0) / 1000,
        medianRatio: tool === 'farkas' || both.length === 0 ? null : exactMedian(both.map((r) => r.runs.farkas!.millis / Math.max(1, r.runs[tool]!.millis))),
      });
    }
  }
  return rows;
}

export function familyMarkdown(rows: readonly FamilyRow[]): string {
  const out = [
    '| family | tasks | tool | sat | unsat | wrong | errors | only farkas | only the peer | total s | median farkas/peer |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    out.push(`| ${r.family} | ${r.tasks} | ${r.tool} | ${r.sat} | ${r.unsat} | ${r.wrong} | ${r.errors} | ${r.tool === 'farkas' ? '' : r.only} | ${r.tool === 'farkas' ? '' : r.onlyPeer} | ${r.seconds.toFixed(1)} | ${r.medianRatio === null ? '' : r.medianRatio.toFixed(2)} |`);
  }
  return out.join('\n');
}

function positive(text: string): number {
  if (!/^\d+(\.\d+)?$/.test(text) || !(Number(text) > 0)) throw new InvalidArgumentError('expected a positive number');
  return Number(text);
}

async function main(): Promise<void> {
  const command = new Command()
    .name('chc')
    .description('Run farkas verify on Horn-clause tasks listed in an INDEX.tsv, beside native z3 and z3-solver\'s Spacer, interleaved')
    .requiredOption('--index <file>', 'INDEX.tsv of the tasks (columns task, smt2, expected: true = sat, false = unsat)')
    .option('--timeout <seconds>', 'per task and tool', positive, 10)
    .option('--peer <name...>', "peers: 'z3' (native, when on PATH), 'spacer' (z3-solver's WASM build) and 'farkas-wasm' (farkas itself with --checker wasm: the checker's A/B); 'none' runs farkas alone", ['z3'])
    .option('--filter <substring>', 'only tasks whose path contains SUBSTRING')
    .option('--every <n>', 'only every N-th task of the index (a sample)', positive)
    .option('--limit <n>', 'only the first N tasks (after --filter and --every)', positive)
    .option('--cli <command>', 'the command that stands for farkas', DEFAULT_CLI.join(' '))
    .option('--out <file>', 'write the Markdown report to FILE and the records to FILE.json')
    .addHelpText('after', `
Example:
  node dist/benchmarks/chc.js --index ../shared/bench/chc/lia-lin/INDEX.tsv --timeout 10 --peer z3 spacer --out /tmp/lia-lin.md`)
    .parse();
  const opts = command.opts<{ index: string; timeout: number; peer: string[]; filter?: string; every?: number; limit?: number; cli: string; out?: string }>();
  let rows = readChcIndex(resolve(opts.index));
  if (opts.filter) rows = rows.filter((r) => r.task.includes(opts.filter!));
  if (opts.every) rows = rows.filter((_, k) => k % opts.every! === 0);
  if (opts.limit) rows = rows.slice(0, opts.limit);
  const peers = opts.peer.filter((p) => {
    if (p === 'none') return false;
    if (p === 'z3' && !nativeZ3Available()) {
      process.stderr.write('chc: native z3 is not on PATH; running without it\n');
      return false;
    }
    if (p !== 'z3' && p !== 'spacer' && p !== 'farkas-wasm') throw new Error(`unknown peer '${p}' (z3, spacer, farkas-wasm, none)`);
    return true;
  });
  const tools = ['farkas', ...peers];
  const cli = opts.cli.split(' ');
  const records: ChcTaskRecord[] = [];
  for (const [k, row] of rows.entries()) {
    const runs: Record<string, ChcRun> = {};
    // Interleaved: each task runs every tool before the next task starts.
    runs.farkas = await runFarkas(cli, row.smt2, opts.timeout);
    if (peers.includes('z3')) runs.z3 = await runNativeZ3(row.smt2, opts.timeout);
    if (peers.includes('spacer')) runs.spacer = await runWasmSpacer(row.smt2, opts.timeout);
    if (peers.includes('farkas-wasm')) runs['farkas-wasm'] = await runFarkas(cli, row.smt2, opts.timeout, ['--checker', 'wasm']);
    const record: ChcTaskRecord = { task: row.task, family: row.task.split('/')[0]!, expected: row.expected, runs };
    records.push(record);
    const cells = tools.map((t) => `${t} ${runs[t]!.outcome}${solved(runs[t]) && runs[t]!.outcome !== row.expected ? ' WRONG' : ''} ${(runs[t]!.millis / 1000).toFixed(1)}s`);
    process.stderr.write(`[${k + 1}/${rows.length}] ${row.task} (${row.expected}): ${cells.join(', ')}\n`);
  }
  const table = familyMarkdown(familyRows(records, tools));
  const text = `# Horn-clause tasks: ${opts.index} at --timeout ${opts.timeout}\n\n${rows.length} tasks; tools: ${tools.join(', ')}; farkas: ${opts.cli}\n\n${table}\n`;
  process.stdout.write(text);
  if (opts.out) {
    writeFileSync(opts.out, text);
    writeFileSync(`${opts.out}.json`, JSON.stringify(records, null, 1));
  }
  const wrong = records.some((r) => tools.some((t) => t.startsWith('farkas') && solved(r.runs[t]) && r.runs[t]!.outcome !== r.expected));
  process.exitCode = wrong ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(REPO_ROOT, 'dist', 'benchmarks', 'chc.js')) await main();
