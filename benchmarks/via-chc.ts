// The Horn-clause front end beside the C one (`harness --via-chc`): each task's program exported as
// Horn clauses (`farkas verify FILE --emit chc`) and solved as such (`farkas verify TASK.smt2`), so
// that both front ends answer the same question and must agree. The CHC run is judged against the
// task's expected verdict like any other; the comparison lists where the two front ends differ.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './cli-process.js';
import { toRecord, type RunRecord } from './classify.js';
import type { BenchTask } from './tasks.js';

/** The label of the CHC front end's runs in the tables (where a cut-set or an engine stands). */
export const VIA_CHC = 'chc';

export interface ViaChcSettings {
  readonly cli: readonly string[];
  readonly timeoutSeconds: number;
  readonly killGraceSeconds: number;
  readonly verifyJobs?: number;
}

/** One task through its CHC export; the record's time is the solve's alone (the export is the C
 * front end's work). An export farkas refuses (recursion, say) is a rejected run. */
export async function runViaChc(task: BenchTask, settings: ViaChcSettings): Promise<RunRecord> {
  const common = { command: settings.cli, file: task.file, cutset: 'headers' as const, timeoutSeconds: settings.timeoutSeconds, killGraceSeconds: settings.killGraceSeconds };
  const exported = await runCli({ ...common, args: ['verify', task.file, '--emit', 'chc', ...(task.function !== undefined ? ['--function', task.function] : [])] });
  if (exported.exitCode !== 0 || exported.killed) return toRecord(task, VIA_CHC, exported, settings.timeoutSeconds);
  const dir = mkdtempSync(join(tmpdir(), 'farkas-via-chc-'));
  try {
    const smt2 = join(dir, 'task.smt2');
    writeFileSync(smt2, exported.stdout);
    const args = ['verify', smt2, '--json', '--timeout', String(settings.timeoutSeconds), ...(settings.verifyJobs !== undefined ? ['--jobs', String(settings.verifyJobs)] : [])];
    return toRecord(task, VIA_CHC, await runCli({ ...common, file: smt2, args }), settings.timeoutSeconds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FrontEndComparison {
  /** Tasks with a run of each front end. */
  readonly tasks: number;
  /** Tasks where both gave the same definite verdict. */
  readonly agree: number;
  /** Tasks where one front end gave a definite verdict and the other none. */
  readonly onlyC: readonly string[];
  readonly onlyChc: readonly string[];
  /** Tasks where the two definite verdicts differ (one of them is wrong). */
  readonly differ: readonly string[];
}

const definite = (r: RunRecord): boolean => r.status === 'safe' || r.status === 'unsafe';

/** The C front end's verdict of a task is its first cut-set's run (as for the Spacer baseline). */
export function compareFrontEnds(records: readonly RunRecord[], cutsetOf: (task: string) => string | undefined): FrontEndComparison {
  const c = new Map(records.filter((r) => r.cutset === cutsetOf(r.task)).map((r) => [r.task, r]));
  const chc = new Map(records.filter((r) => r.cutset === VIA_CHC).map((r) => [r.task, r]));
  let tasks = 0;
  let agree = 0;
  const onlyC: string[] = [];
  const onlyChc: string[] = [];
  const differ: string[] = [];
  for (const [task, x] of c) {
    const y = chc.get(task);
    if (!y) continue;
    tasks++;
    if (definite(x) && definite(y)) (x.status === y.status ? agree++ : differ.push(task));
    else if (definite(x)) onlyC.push(task);
    else if (definite(y)) onlyChc.push(task);
  }
  return { tasks, agree, onlyC, onlyChc, differ };
}

export function frontEndLines(c: FrontEndComparison): string[] {
  const list = (xs: readonly string[]): string => (xs.length === 0 ? '-' : xs.join(', '));
  return [
    `C front end against its Horn-clause export (${c.tasks} tasks): the same verdict on ${c.agree}; different on ${c.differ.length}${c.differ.length > 0 ? ` (${c.differ.join(', ')})` : ''}`,
    `  a verdict from the C front end only: ${list(c.onlyC)}`,
    `  a verdict from the Horn clauses only: ${list(c.onlyChc)}`,
  ];
}
