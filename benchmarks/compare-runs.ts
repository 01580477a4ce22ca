// `node dist/benchmarks/compare-runs.js A.json B.json`: two runs of the harness (`--out X.md` writes
// X.json beside it) task by task — the verdict, and the work of every schedule step (template,
// result, conflicts, propagations), which must be equal when the answers come from work limits only
// (issue 20: the same answer on an idle or a busy machine). Exit 1 when any task differs.
import { readFileSync } from 'node:fs';
import type { RunRecord } from './classify.js';

interface HarnessJson {
  readonly commit?: string;
  readonly records: readonly RunRecord[];
}

/** What must not depend on the machine's load: the status and each step's work. */
export function workOf(r: RunRecord): string {
  return JSON.stringify({
    status: r.status,
    steps: (r.report?.stats ?? []).map((s) => [s.template, s.result, s.conflicts ?? null, s.propagations ?? null]),
  });
}

/** A task may run once per cut-set and engine: each run is compared with its own. */
function runKey(r: RunRecord): string {
  const engine = (r as { readonly engine?: string }).engine;
  return [r.task, r.cutset, engine].filter((x) => x !== undefined).join(' ');
}

export function compareRuns(a: readonly RunRecord[], b: readonly RunRecord[]): { same: number; differing: string[]; missing: string[] } {
  const other = new Map(b.map((r) => [runKey(r), r]));
  const differing: string[] = [];
  const missing: string[] = [];
  let same = 0;
  for (const r of a) {
    const s = other.get(runKey(r));
    if (!s) missing.push(runKey(r));
    else if (workOf(r) === workOf(s)) same++;
    else differing.push(`${runKey(r)}: ${workOf(r)} | ${workOf(s)}`);
  }
  return { same, differing, missing };
}

function main(): number {
  const files = process.argv.slice(2);
  if (files.length !== 2) {
    process.stderr.write('usage: compare-runs A.json B.json\n');
    return 3;
  }
  const [a, b] = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as HarnessJson);
  const seconds = (h: HarnessJson): number => Math.round(h.records.reduce((s, r) => s + r.wallMillis, 0) / 1000);
  const { same, differing, missing } = compareRuns(a!.records, b!.records);
  for (const d of differing) process.stdout.write(`differs: ${d}\n`);
  for (const m of missing) process.stdout.write(`missing in the second run: ${m}\n`);
  process.stdout.write(`${a!.records.length} runs: ${same} with the same verdict and step work, ${differing.length} differing, ${missing.length} missing; total ${seconds(a!)} s against ${seconds(b!)} s\n`);
  return differing.length + missing.length > 0 ? 1 : 0;
}

if (process.argv[1]?.endsWith('compare-runs.js')) process.exit(main());
