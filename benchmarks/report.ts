// The benchmark table (console rows while running, Markdown at the end) and the totals.
import type { Correctness, RunRecord } from './classify.js';

export interface Totals {
  readonly runs: number;
  readonly tasks: number;
  readonly expectedSafe: number;
  readonly proved: number;
  readonly expectedUnsafe: number;
  readonly unsafeFound: number;
  /** Unknown verdicts, harness kills included. */
  readonly unknown: number;
  readonly timeouts: number;
  readonly rejected: number;
  readonly wrong: number;
  readonly errors: number;
  readonly totalWallMillis: number;
  readonly medianWallMillis: number;
}

/** The median of whole milliseconds, rounded to a whole millisecond. */
export function median(values: readonly number[]): number {
  return Math.round(exactMedian(values));
}

/** The median as it is (of an even count, the mean of the middle two): for ratios. */
export function exactMedian(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function totals(records: readonly RunRecord[]): Totals {
  const count = (p: (r: RunRecord) => boolean): number => records.filter(p).length;
  const walls = records.map((r) => r.wallMillis);
  return {
    runs: records.length,
    tasks: new Set(records.map((r) => r.task)).size,
    expectedSafe: count((r) => r.expected === 'safe'),
    proved: count((r) => r.expected === 'safe' && r.status === 'safe'),
    expectedUnsafe: count((r) => r.expected === 'unsafe'),
    unsafeFound: count((r) => r.expected === 'unsafe' && r.status === 'unsafe'),
    unknown: count((r) => r.status === 'unknown' || r.status === 'timeout'),
    timeouts: count((r) => r.status === 'timeout'),
    rejected: count((r) => r.status === 'rejected'),
    wrong: count((r) => r.correctness === 'wrong'),
    errors: count((r) => r.correctness === 'error'),
    totalWallMillis: walls.reduce((a, b) => a + b, 0),
    medianWallMillis: median(walls),
  };
}

/** The harness fails (exit 1) on any wrong verdict or error. */
export function runFailed(t: Totals): boolean {
  return t.wrong > 0 || t.errors > 0;
}

const CORRECTNESS_LABEL: Record<Correctness, string> = { correct: 'yes', inconclusive: '-', wrong: 'WRONG', error: 'ERROR' };

function seconds(ms: number | undefined): string {
  return ms === undefined ? '' : (ms / 1000).toFixed(2);
}

export const COLUMNS = ['task', 'expected', 'verdict', 'correct?', 'cut-set', 'template', 'q', 'vars', 'clauses', 'SAT s', 'solve s', 'engine s', 'total s'] as const;

export function rowCells(r: RunRecord): string[] {
  return [
    r.task,
    r.expected,
    r.status,
    CORRECTNESS_LABEL[r.correctness],
    r.cutset,
    r.template ?? '',
    r.q !== undefined ? String(r.q) : '',
    r.variables !== undefined ? String(r.variables) : '',
    r.clauses !== undefined ? String(r.clauses) : '',
    seconds(r.satMillis),
    seconds(r.solverMillis),
    seconds(r.engineMillis),
    seconds(r.wallMillis),
  ];
}

/** Fixed column widths for the console: long names are cut rather than breaking the alignment. */
const CONSOLE_WIDTHS = [34, 8, 8, 8, 16, 12, 2, 7, 8, 7, 7, 8, 7];
const RIGHT_ALIGNED = new Set([6, 7, 8, 9, 10, 11, 12]);

function fit(text: string, width: number, right: boolean): string {
  const cut = text.length > width ? text.slice(0, width - 1) + '~' : text;
  return right ? cut.padStart(width) : cut.padEnd(width);
}

function consoleLine(cells: readonly string[]): string {
  return cells.map((c, i) => fit(c, CONSOLE_WIDTHS[i]!, RIGHT_ALIGNED.has(i))).join(' ').trimEnd();
}

export function consoleHeader(): string {
  return consoleLine(COLUMNS) + '\n' + consoleLine(CONSOLE_WIDTHS.map((w) => '-'.repeat(w)));
}

/** The row printed as a run finishes; a wrong verdict is shouted, other non-verdicts show their reason. */
export function consoleRow(r: RunRecord): string {
  let line = consoleLine(rowCells(r));
  if (r.correctness === 'wrong') {
    line += `\n!!! WRONG VERDICT: ${r.task} (${r.cutset}) is expected ${r.expected} but farkas said ${r.status}${r.reason ? ` (${r.reason})` : ''}`;
  } else if (r.correctness === 'error') {
    line += `\n!!! ERROR: ${r.task} (${r.cutset}): ${r.reason ?? 'no message'}`;
  } else if (r.status !== 'safe' && r.status !== 'unsafe' && r.reason) {
    line += `\n    ${r.status}: ${r.reason}`;
  }
  return line;
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '' : ` (${Math.round((100 * part) / whole)}%)`;
}

export function totalsLines(t: Totals): string[] {
  return [
    `runs: ${t.runs} (${t.tasks} tasks)`,
    `proved safe: ${t.proved} / ${t.expectedSafe} expected-safe${percent(t.proved, t.expectedSafe)}`,
    `unsafe found: ${t.unsafeFound} / ${t.expectedUnsafe} expected-unsafe${percent(t.unsafeFound, t.expectedUnsafe)}`,
    `unknown: ${t.unknown}${t.timeouts > 0 ? ` (${t.timeouts} killed at the hard timeout)` : ''}`,
    `rejected (unsupported input): ${t.rejected}`,
    `WRONG verdicts: ${t.wrong}`,
    `errors: ${t.errors}`,
    `time: total ${seconds(t.totalWallMillis)} s, median ${seconds(t.medianWallMillis)} s per run`,
  ];
}

/** One line per engine (records[i] ran with engines[i]): verdicts and time, for side-by-side comparison. */
export function engineTotalsLines(records: readonly RunRecord[], engines: readonly string[]): string[] {
  return [...new Set(engines)].map((engine) => {
    const t = totals(records.filter((_, i) => engines[i] === engine));
    return `  ${engine.padEnd(17)} proved ${t.proved}/${t.expectedSafe}, unsafe found ${t.unsafeFound}/${t.expectedUnsafe}, unknown ${t.unknown}, WRONG ${t.wrong}, errors ${t.errors}, time total ${seconds(t.totalWallMillis)} s, median ${seconds(t.medianWallMillis)} s`;
  });
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export interface MarkdownContext {
  readonly title: string;
  /** Free-form lines describing the run (date, options, suites). */
  readonly description: readonly string[];
}

/** The Markdown report: the table, the reasons for every non-verdict, then the totals. */
export function markdownReport(records: readonly RunRecord[], ctx: MarkdownContext): string {
  const out: string[] = [`# ${ctx.title}`, '', ...ctx.description.map((d) => `${d}  `), ''];
  out.push(`| ${COLUMNS.join(' | ')} |`);
  out.push(`|${COLUMNS.map((_, i) => (RIGHT_ALIGNED.has(i) ? '---:' : '---')).join('|')}|`);
  for (const r of records) out.push(`| ${rowCells(r).map(escapeCell).join(' | ')} |`);
  const explained = records.filter((r) => r.reason !== undefined && (r.status !== 'safe' && r.status !== 'unsafe' || r.correctness !== 'correct'));
  if (explained.length > 0) {
    out.push('', '## Reasons', '');
    for (const r of explained) out.push(`- ${escapeCell(r.task)} (${r.cutset}, ${r.status}): ${escapeCell(r.reason!)}`);
  }
  out.push('', '## Totals', '', ...totalsLines(totals(records)).map((l) => `- ${l}`), '');
  out.push('vars and clauses are those of the last template step attempted (the one that decided the run), q its summary pairs per recursive procedure (recursive programs only); SAT s sums the SAT calls of all steps (wall-clock, solver start-up included), solve s the time inside the solver (MiniSat: from receiving the clauses to the answer; what the paper’s Table 1 reports) plus, when verify’s observed bounds ran, their checker rounds (z3’s start-up excluded); engine s is the time farkas reports, total s the wall-clock time of the child process.', '');
  return out.join('\n');
}
