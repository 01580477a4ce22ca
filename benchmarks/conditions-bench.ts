// `npm run bench:conditions`: the weakest-precondition, strongest-postcondition, bounds and
// counterexample benchmarks
// (`benchmarks/**/NAME.conditions.yaml` beside, or pointing at, a program). For each task: the answers,
// how each expected answer relates to them (z3 over the integers), solver calls, iterations, the
// largest query's clauses and the time, next to the paper's time (Table 1(c)/(d)) where it has one.
//   node dist/benchmarks/conditions-bench.js [FOLDER] [--timeout S] [--json FILE]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { parseProgram } from '../lib/frontend/index.js';
import { wp } from '../lib/conditions/wp.js';
import { sp } from '../lib/conditions/sp.js';
import { cex } from '../lib/conditions/cex.js';
import { nonterm } from '../lib/termination/nonterm.js';
import { bounds } from '../lib/termination/bounds.js';
import * as L from '../lib/ir/linear.js';
import type { ConditionAnswer, ConditionStats } from '../lib/conditions/types.js';
import { equivalent, implies } from '../lib/certify/lia.js';
import { parseCExpression } from '../lib/witness/c-expression.js';
import * as F from '../lib/ir/formula.js';
import { shutdownZ3 } from '../lib/sat/z3-context.js';
import { guardCost } from '../lib/guard/runs.js';
import { Problem } from '../lib/problem/prepare.js';
import { resolveSettings } from '../lib/settings.js';

interface ConditionTask {
  readonly id: string;
  /** bounds: each expected answer reads `BOUND` or `BOUND if PRECONDITION`. */
  readonly mode: Mode;
  readonly file: string;
  readonly function: string;
  readonly expected: readonly string[];
  readonly paperSeconds?: number;
  readonly source?: string;
}

const MODES = ['wp', 'sp', 'bounds', 'cex', 'nonterm'] as const;
type Mode = (typeof MODES)[number];

type Relation = 'equivalent' | 'stronger' | 'weaker' | 'incomparable' | 'unknown';

function findTasks(root: string): ConditionTask[] {
  const out: ConditionTask[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!['node_modules', 'results', 'dist'].includes(name)) walk(path);
      } else if (name.endsWith('.conditions.yaml')) {
        const meta = parseYaml(readFileSync(path, 'utf8')) as Record<string, unknown>;
        const base = name.slice(0, -'.conditions.yaml'.length);
        const mode = meta.mode;
        if (!MODES.includes(mode as Mode)) throw new Error(`${path}: mode must be one of ${MODES.join(', ')}`);
        out.push({
          id: relative(root, join(dir, base)),
          mode: mode as Mode,
          file: resolve(dir, typeof meta.file === 'string' ? meta.file : `${base}.c`),
          function: String(meta.function),
          expected: (meta.expected as unknown[]).map(String),
          ...(typeof meta.paper_seconds === 'number' ? { paperSeconds: meta.paper_seconds } : {}),
          ...(typeof meta.source === 'string' ? { source: meta.source } : {}),
        });
      }
    }
  };
  walk(root);
  return out;
}

async function relate(answer: F.Formula, expected: F.Formula): Promise<Relation> {
  if ((await equivalent(answer, expected, { timeLimitMs: 5000 })).status === 'valid') return 'equivalent';
  const [down, up] = [await implies(answer, expected, { timeLimitMs: 5000 }), await implies(expected, answer, { timeLimitMs: 5000 })];
  if (down.status === 'valid') return 'stronger';
  if (up.status === 'valid') return 'weaker';
  return down.status === 'unknown' || up.status === 'unknown' ? 'unknown' : 'incomparable';
}

const BOUND = '__bound';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const here = dirname(fileURLToPath(import.meta.url));
  const root = resolve(args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? join(here, '../../benchmarks'));
  const timeoutMs = Number(option('--timeout') ?? '300') * 1000;
  const rows: Record<string, unknown>[] = [];
  console.log(`| task | mode | answers | expected answer vs found | certified | locally optimal | solver calls | iterations | max clauses | time s | guard s | paper s |`);
  console.log(`|---|---|---|---|---|---|---:|---:|---:|---:|---:|---:|`);
  for (const task of findTasks(root)) {
    const program = parseProgram(readFileSync(task.file, 'utf8'), task.file);
    const started = Date.now();
    const guardBefore = guardCost.millis;
    // Bounds become answers `__bound == BOUND && PRECONDITION`, so one relation test covers both.
    let answers: readonly Pick<ConditionAnswer, 'expression' | 'formula' | 'certified' | 'locallyOptimal'>[];
    let stats: ConditionStats;
    let reason: string | undefined;
    if (task.mode === 'wp') {
      const r = await wp(Problem.of(program, task.function), resolveSettings({ timeoutMs }));
      [answers, stats, reason] = [r.preconditions, r.stats, r.reason];
    } else if (task.mode === 'sp') {
      const r = await sp(Problem.of(program, task.function), resolveSettings({ timeoutMs }));
      [answers, stats, reason] = [r.postcondition ? [r.postcondition] : [], r.stats, r.reason];
    } else if (task.mode === 'cex') {
      const r = await cex(Problem.of(program, task.function), resolveSettings({ timeoutMs }));
      [answers, stats, reason] = [r.conditions, r.stats, r.reason];
    } else if (task.mode === 'nonterm') {
      const r = await nonterm(Problem.of(program, task.function), resolveSettings({ timeoutMs }));
      [answers, stats, reason] = [r.conditions, r.stats, r.reason];
    } else {
      const r = await bounds(Problem.of(program, task.function), resolveSettings({ timeoutMs }));
      answers = [...r.loops, ...r.procedures].filter((l) => l.boundExpr).map((l) => ({
        expression: `${l.bound}${l.precondition === '1' ? '' : ` if ${l.precondition}`}`,
        formula: F.and(F.eqZero(L.sub(L.variable(BOUND), l.boundExpr!)), l.preconditionFormula),
        certified: l.certified,
        locallyOptimal: ('locallyWeakest' in l ? l.locallyWeakest : undefined) ?? l.tight !== undefined,
      }));
      // Solver calls: every SAT call of the verify runs and wp queries behind the bounds.
      stats = { queries: Array.from({ length: r.stats.satCalls }, () => ({ conjuncts: 0, template: '', variables: 0, clauses: r.stats.maxClauses, satMillis: 0, result: 'sat' as const })), iterations: r.stats.proofAttempts, concreteRuns: r.runs, millis: r.millis };
      reason = [...r.loops, ...r.procedures].find((l) => l.reason)?.reason;
    }
    const seconds = (Date.now() - started) / 1000;
    const guardSeconds = (guardCost.millis - guardBefore) / 1000;
    const proc = program.procedures.get(task.function)!;
    const scope = Object.fromEntries([...program.globals.map((g) => g.name), ...proc.params, ...proc.locals, BOUND].map((v) => [v, v]));
    const relations: string[] = [];
    for (const e of task.expected) {
      const [bound, pre] = e.split(' if ');
      const text = task.mode === 'bounds' ? `${BOUND} == (${bound}) && (${pre ?? '1'})` : e;
      const expected = parseCExpression(text, scope, task.file);
      const found: Relation[] = [];
      for (const a of answers) found.push(await relate(a.formula, expected));
      const best = (['equivalent', 'stronger', 'weaker', 'incomparable', 'unknown'] as const).find((r) => found.includes(r)) ?? 'missing';
      relations.push(`${e}: ${best}`);
    }
    const clauses = stats.queries.reduce((m, q) => Math.max(m, q.clauses), 0);
    const row = {
      task: task.id,
      mode: task.mode,
      answers: answers.map((a) => a.expression),
      expected: relations,
      certified: answers.every((a) => a.certified),
      locallyOptimal: answers.map((a) => a.locallyOptimal),
      solverCalls: stats.queries.length,
      iterations: stats.iterations,
      maxClauses: clauses,
      seconds,
      guardSeconds,
      ...(task.paperSeconds !== undefined ? { paperSeconds: task.paperSeconds } : {}),
      ...(reason ? { reason } : {}),
    };
    rows.push(row);
    console.log(`| ${task.id} | ${task.mode} | ${row.answers.join('; ') || `none (${reason})`} | ${relations.join('; ')} | ${row.certified ? 'yes' : 'no'} | ${row.locallyOptimal.map((x) => (x ? 'yes' : 'no')).join(', ')} | ${row.solverCalls} | ${row.iterations} | ${clauses} | ${seconds.toFixed(1)} | ${guardSeconds.toFixed(2)} | ${task.paperSeconds ?? ''} |`);
  }
  const json = option('--json');
  if (json) writeFileSync(json, JSON.stringify(rows, null, 2));
  await shutdownZ3();
}

main().catch((e: unknown) => {
  process.stderr.write(`conditions-bench: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(4);
});
