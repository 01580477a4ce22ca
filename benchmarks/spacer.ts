// The Spacer baseline: Z3's Horn engine on farkas' CHC export of each task (same front end, same
// semantics), run in a child process with a hard deadline, and the comparison of both tools.
import { fileURLToPath } from 'node:url';
import { runCli } from './cli-process.js';
import type { RunRecord } from './classify.js';
import type { Expected } from './tasks.js';

export const SPACER_CHILD = fileURLToPath(new URL('./spacer-child.js', import.meta.url));

export type SpacerVerdict = 'safe' | 'unsafe' | 'unknown' | 'timeout' | 'rejected' | 'error';

export interface SpacerRecord {
  readonly verdict: SpacerVerdict;
  readonly correctness: 'correct' | 'wrong' | 'none';
  readonly reason?: string;
  /** Wall-clock time of the child process (start-up and export included, like farkas' wallMillis);
   * for native z3, of the z3 process alone (the export is farkas's work, not the peer's). */
  readonly wallMillis: number;
  /** The Horn solve alone. */
  readonly solveMillis?: number;
}

export async function runSpacer(task: { file: string; function?: string; expected: Expected }, timeoutSeconds: number, killGraceSeconds: number, build: 'wasm' | 'native' = 'wasm'): Promise<SpacerRecord> {
  const outcome = await runCli({
    command: ['node', SPACER_CHILD],
    file: task.file,
    cutset: 'headers',
    timeoutSeconds,
    killGraceSeconds,
    args: [task.file, '--timeout', String(timeoutSeconds), ...(task.function !== undefined ? ['--function', task.function] : []), ...(build === 'native' ? ['--native'] : [])],
  });
  let base = { wallMillis: outcome.wallMillis };
  if (outcome.killed) return { ...base, verdict: 'timeout', correctness: 'none', reason: 'killed at the deadline' };
  let parsed: { status?: string; reason?: string; millis?: number };
  try {
    parsed = JSON.parse(outcome.stdout.trim().split('\n').pop() ?? '');
  } catch {
    return { ...base, verdict: 'error', correctness: 'none', reason: (outcome.stderr.trim() || `exit ${outcome.exitCode}`).slice(0, 300) };
  }
  if (build === 'native' && parsed.millis !== undefined) base = { wallMillis: parsed.millis };
  const verdict: SpacerVerdict =
    parsed.status === 'sat' ? 'safe' : parsed.status === 'unsat' ? 'unsafe' : parsed.status === 'rejected' ? 'rejected'
      : parsed.status === 'unknown' ? (/timeout|canceled/.test(parsed.reason ?? '') ? 'timeout' : 'unknown') : 'error';
  const definite = verdict === 'safe' || verdict === 'unsafe';
  return {
    ...base,
    verdict,
    correctness: !definite ? 'none' : verdict === task.expected ? 'correct' : 'wrong',
    ...(parsed.reason !== undefined ? { reason: parsed.reason } : {}),
    ...(parsed.millis !== undefined ? { solveMillis: parsed.millis } : {}),
  };
}

export interface Comparison {
  /** Tasks compared (not rejected by both). */
  readonly tasks: number;
  /** Tasks both tools ran on (times and ratios are over these). */
  readonly timed: number;
  readonly farkasCorrect: number;
  readonly spacerCorrect: number;
  readonly farkasWrong: number;
  readonly spacerWrong: number;
  /** Tasks Spacer answered correctly and farkas did not, and the reverse. */
  readonly onlySpacer: readonly string[];
  readonly onlyFarkas: readonly string[];
  /** farkas wall time / Spacer wall time: median over tasks, and of the sums. */
  readonly medianRatio: number | null;
  readonly totalRatio: number | null;
  /** The median ratio over the tasks both tools answered correctly (where neither timed out). */
  readonly bothCorrectMedianRatio: number | null;
  readonly farkasMillis: number;
  readonly spacerMillis: number;
}

export function ratio(farkasMillis: number, spacerMillis: number): number {
  return farkasMillis / Math.max(1, spacerMillis);
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Tasks rejected by both are left out. One farkas record per task (its first cut-set) against the Spacer record of the task. A task
 * counts as proved by farkas if any of its cut-sets answered correctly. */
export function compare(records: readonly RunRecord[], spacer: ReadonlyMap<string, SpacerRecord>): Comparison {
  const byTask = new Map<string, RunRecord[]>();
  for (const r of records) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r]);
  let farkasCorrect = 0, spacerCorrect = 0, farkasWrong = 0, spacerWrong = 0, farkasMillis = 0, spacerMillis = 0;
  const ratios: number[] = [];
  const bothCorrectRatios: number[] = [];
  const onlySpacer: string[] = [];
  const onlyFarkas: string[] = [];
  let farkasOrSpacerTasks = 0;
  for (const [task, runs] of byTask) {
    const s = spacer.get(task);
    // Both tools share the front end: a task it rejects for both is no comparison. (Spacer alone
    // rejects what the CHC export does not cover: recursion.)
    if (!s || (s.verdict === 'rejected' && runs.every((r) => r.status === 'rejected'))) continue;
    farkasOrSpacerTasks++;
    const fCorrect = runs.some((r) => r.correctness === 'correct');
    if (fCorrect) farkasCorrect++;
    if (runs.some((r) => r.correctness === 'wrong')) farkasWrong++;
    if (s.correctness === 'correct') spacerCorrect++;
    if (s.correctness === 'wrong') spacerWrong++;
    if (s.correctness === 'correct' && !fCorrect) onlySpacer.push(task);
    if (fCorrect && s.correctness !== 'correct') onlyFarkas.push(task);
    // Times compare runs where both tools actually worked on the task.
    if (s.verdict === 'rejected' || runs[0]!.status === 'rejected') continue;
    const f = runs[0]!.wallMillis;
    farkasMillis += f;
    spacerMillis += s.wallMillis;
    ratios.push(ratio(f, s.wallMillis));
    if (runs[0]!.correctness === 'correct' && s.correctness === 'correct') bothCorrectRatios.push(ratio(f, s.wallMillis));
  }
  return {
    tasks: farkasOrSpacerTasks,
    timed: ratios.length,
    farkasCorrect, spacerCorrect, farkasWrong, spacerWrong, onlySpacer, onlyFarkas,
    medianRatio: median(ratios),
    totalRatio: ratios.length > 0 ? ratio(farkasMillis, spacerMillis) : null,
    bothCorrectMedianRatio: median(bothCorrectRatios),
    farkasMillis, spacerMillis,
  };
}

const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

export function spacerRow(task: string, farkas: RunRecord, s: SpacerRecord): string {
  return `  spacer ${task}: ${s.verdict}${s.correctness === 'wrong' ? ' (WRONG)' : ''} ${secs(s.wallMillis)} | farkas ${farkas.status} ${secs(farkas.wallMillis)} | ratio farkas/spacer ${ratio(farkas.wallMillis, s.wallMillis).toFixed(2)}`;
}

export function comparisonLines(c: Comparison): string[] {
  const fmt = (x: number | null): string => (x === null ? '-' : x.toFixed(2));
  return [
    `Spacer baseline (z3 Horn engine on the CHC export), ${c.tasks} tasks:`,
    `  correct verdicts: farkas ${c.farkasCorrect}, Spacer ${c.spacerCorrect}; wrong: farkas ${c.farkasWrong}, Spacer ${c.spacerWrong}`,
    `  only Spacer: ${c.onlySpacer.length ? c.onlySpacer.join(', ') : '-'}`,
    `  only farkas: ${c.onlyFarkas.length ? c.onlyFarkas.join(', ') : '-'}`,
    `  time over the ${c.timed} tasks both ran: farkas ${secs(c.farkasMillis)}, Spacer ${secs(c.spacerMillis)}; ratio farkas/Spacer: median ${fmt(c.medianRatio)}, total ${fmt(c.totalRatio)}`,
    `  on the tasks both answered correctly: median ratio ${fmt(c.bothCorrectMedianRatio)}`,
  ];
}

/** Per-task table and summary for the Markdown report. */
export function spacerMarkdown(records: readonly RunRecord[], spacer: ReadonlyMap<string, SpacerRecord>, c: Comparison): string {
  const out = ['## Spacer baseline', '', '| task | expected | farkas | farkas s | Spacer | Spacer s | farkas/Spacer |', '|---|---|---|---:|---|---:|---:|'];
  const seen = new Set<string>();
  for (const r of records) {
    const s = spacer.get(r.task);
    if (!s || seen.has(r.task)) continue;
    seen.add(r.task);
    out.push(`| ${r.task} | ${r.expected} | ${r.status} | ${(r.wallMillis / 1000).toFixed(2)} | ${s.verdict}${s.correctness === 'wrong' ? ' (WRONG)' : ''} | ${(s.wallMillis / 1000).toFixed(2)} | ${ratio(r.wallMillis, s.wallMillis).toFixed(2)} |`);
  }
  return [...out, '', ...comparisonLines(c).map((l) => l.trim()).map((l) => `${l}  `), ''].join('\n');
}
