// Loop bounds against brute force (issue 19): `node dist/scripts/tpdb-bounds-check.js [FOLDER]
// [--timeout SECONDS] [--limit STEPS]`. Runs `bounds` on every C program of FOLDER (default
// ../shared/bench/tpdb/bounds) and hands each certified bound to the benchmark's own brute-force
// checker (FOLDER/../brute/check.py, python3), which runs the program natively on a grid of inputs and
// counts body entries per loop entry: a run that exceeds a certified bound is a wrong answer (exit 1).
// A conditional bound is checked as `bound if precondition` when its C text reads the same in Python
// (no `!`, `/` or `%`); other loops are passed as `none` and counted as unchecked.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { InputError } from '../lib/diagnostics.js';
import { bounds, type LoopBound } from '../lib/termination/bounds.js';
import { parseProgram } from '../lib/frontend/index.js';
import { shutdownZ3 } from '../lib/sat/z3-context.js';
import { Problem } from '../lib/problem/prepare.js';
import { resolveSettings } from '../lib/settings.js';

/** The checker's expression for one loop from its answers (several when the bound is conditional or
 * split into cases), or null when it cannot be stated (then `none`): an unconditional bound, else the
 * cases of a split as `b1 if c1 else b2 if c2 else b3`, else the first conditional bound as `b if c`. */
export function checkerExpression(answers: readonly LoopBound[]): string | null {
  // C's / and % truncate where Python's floor, and ! is not Python.
  const samePython = (c: string) => !/[/%]|!(?!=)/.test(c);
  const python = (c: string) => c.replace(/\s*&&\s*/g, ' and ').replace(/\s*\|\|\s*/g, ' or ');
  const certified = answers.filter((a) => a.certified && a.bound !== null && samePython(a.bound) && samePython(a.precondition));
  const bound = (a: LoopBound) => `max(0, ${a.bound})`; // a negative bound allows no iteration
  const unconditional = certified.find((a) => a.precondition === '1');
  if (unconditional) return bound(unconditional);
  // The cases of a split partition the inputs: each but the last under its condition, the last the rest.
  const cases = answers.filter((a) => a.caseSplit && a.certified);
  if (cases.length >= 2 && cases.length === certified.filter((a) => a.caseSplit).length) {
    return cases.map((a, i) => (i < cases.length - 1 ? `${bound(a)} if ${python(a.precondition)} else ` : bound(a))).join('');
  }
  const first = certified[0];
  return first ? `${bound(first)} if ${python(first.precondition)}` : null;
}

/** The answers of each loop, in source order (the checker's order). */
function byLoop(loops: readonly LoopBound[]): LoopBound[][] {
  const groups = new Map<string, LoopBound[]>();
  for (const l of [...loops].sort((a, b) => a.line - b.line || a.col - b.col)) {
    const key = `${l.line}:${l.col}`;
    groups.set(key, [...(groups.get(key) ?? []), l]);
  }
  return [...groups.values()];
}

interface LoopVerdict {
  readonly line: number;
  /** ok: never exceeded and attained on some input; loose: never exceeded, never attained (valid,
   * not tight); inconclusive: some runs went past the step limit. */
  readonly status: 'ok' | 'loose' | 'exceeded' | 'unchecked' | 'inconclusive';
  readonly detail: string;
}

/** The checker's report, one verdict per loop in source order (`loop k (line N): OK|VIOLATED …`). */
export function readCheckerReport(text: string, expressions: readonly (string | null)[]): LoopVerdict[] {
  const out: LoopVerdict[] = [];
  for (const m of text.matchAll(/^\s*loop (\d+) \(line (\d+)\): (\S+)(.*)$/gm)) {
    const index = Number(m[1]);
    const detail = `${m[3]}${m[4]}`.trim();
    const exceeded = /exceeded (\d+)/.exec(m[4]!);
    const status = expressions[index] === null ? 'unchecked' : exceeded && exceeded[1] !== '0' ? 'exceeded' : m[3] === 'OK' ? 'ok' : m[3] === 'NOT' ? 'loose' : 'inconclusive';
    out.push({ line: Number(m[2]), status, detail });
  }
  return out;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

async function main(): Promise<number> {
  const cli = new Command('tpdb-bounds-check')
    .description("farkas bounds on each program of a folder, every certified bound checked by the benchmark's brute-force checker")
    .argument('[folder]', 'C programs with loops', '../shared/bench/tpdb/bounds')
    .option('--timeout <seconds>', 'time bound of bounds per program', '30')
    .option('--limit <steps>', "the checker's step limit per run (a run past it counts as diverging)", '100000')
    .parse();
  const folder = resolve(cli.args[0] ?? '../shared/bench/tpdb/bounds');
  const opts = cli.opts<{ timeout: string; limit: string }>();
  const timeoutMs = Number(opts.timeout) * 1000;
  const checker = join(dirname(folder), 'brute', 'check.py');
  if (!(timeoutMs > 0) || !/^\d+$/.test(opts.limit)) {
    process.stderr.write('tpdb-bounds-check: --timeout takes a positive number of seconds, --limit a number of steps\n');
    return 3;
  }
  if (!existsSync(folder) || !existsSync(checker)) {
    process.stderr.write(`tpdb-bounds-check: no programs at ${folder} or no checker at ${checker}\n`);
    return 3;
  }
  const files = readdirSync(folder).filter((f) => f.endsWith('.c')).sort();
  const seconds: number[] = [];
  const counts = { programs: 0, rejected: 0, ok: 0, loose: 0, exceeded: 0, unchecked: 0, inconclusive: 0 };
  for (const name of files) {
    const file = join(folder, name);
    counts.programs++;
    let loops: LoopBound[][];
    let fn: string;
    const started = Date.now();
    try {
      const result = await bounds(Problem.of(parseProgram(readFileSync(file, 'utf8'), file)), resolveSettings({ timeoutMs }));
      seconds.push((Date.now() - started) / 1000);
      loops = byLoop(result.loops);
      fn = result.function;
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      counts.rejected++;
      process.stdout.write(`${name}: rejected: ${e.message}\n`);
      continue;
    }
    const expressions = loops.map(checkerExpression);
    const run = spawnSync('python3', [checker, file, '--function', fn, '--limit', opts.limit, ...expressions.map((e) => e ?? 'none')], { encoding: 'utf8' });
    const verdicts = readCheckerReport(run.stdout ?? '', expressions);
    if (run.status !== 0 && run.status !== 1) {
      process.stdout.write(`${name}: the checker failed (exit ${run.status}): ${(run.stderr ?? '').trim()}\n`);
      counts.inconclusive += loops.length;
      continue;
    }
    for (const v of verdicts) {
      counts[v.status]++;
      process.stdout.write(`${name}:${v.line}: ${v.status}${v.status === 'unchecked' ? '' : ` ${v.detail}`}\n`);
    }
  }
  process.stdout.write(
    `programs: ${counts.programs} (rejected ${counts.rejected}); bounds checked: ${counts.ok + counts.loose + counts.exceeded + counts.inconclusive} ` +
      `(attained on some input: ${counts.ok}, never attained: ${counts.loose}), exceeded by a run: ${counts.exceeded}, ` +
      `inconclusive (runs past the step limit): ${counts.inconclusive}; loops without a checkable bound: ${counts.unchecked}; ` +
      `bounds time per program: median ${median(seconds).toFixed(1)} s, total ${seconds.reduce((a, b) => a + b, 0).toFixed(0)} s\n`,
  );
  return counts.exceeded > 0 ? 1 : 0;
}

if (process.argv[1]?.endsWith('tpdb-bounds-check.js')) {
  main().then(
    async (code) => {
      await shutdownZ3();
      process.exit(code);
    },
    (e: unknown) => {
      process.stderr.write(`tpdb-bounds-check: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(4);
    },
  );
}
