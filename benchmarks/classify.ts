// Turns the outcome of one `farkas verify --json` child process into a run status, and judges it
// against the expected verdict. Only a definite answer that contradicts the truth is wrong; an
// unknown, a timeout or a rejected input is merely inconclusive.
import type { CliOutcome } from './cli-process.js';
import type { Expected } from './tasks.js';

/** The exit codes of `farkas verify` (cli/exit-codes.ts), restated here as the contract under test. */
export const VERIFY_EXIT = { safe: 0, unsafe: 1, unknown: 2, inputError: 3, internalError: 4 } as const;

export type RunStatus = 'safe' | 'unsafe' | 'unknown' | 'timeout' | 'rejected' | 'error';
export type Correctness = 'correct' | 'wrong' | 'inconclusive' | 'error';

/** One step of the template schedule as reported in the `stats` array of the JSON output. */
export interface VerifyStep {
  readonly template: string;
  readonly widths?: { readonly coefficient: number; readonly constant: number; readonly multiplier: number };
  readonly unknowns?: number;
  readonly constraints?: number;
  readonly variables?: number;
  readonly clauses?: number;
  readonly encodeMs?: number;
  readonly satMs?: number;
  readonly solverMs?: number;
  readonly backend?: string;
  readonly result?: string;
  readonly reason?: string;
  /** The SAT work of the step (MiniSat counts both; z3 and external solvers conflicts only). */
  readonly conflicts?: number;
  readonly propagations?: number;
  /** Pre/post pairs per recursive procedure (only for programs with summaries). */
  readonly summaries?: number;
}

/** The parts of the `farkas verify --json` object the harness reads; the rest is kept verbatim. */
export interface VerifyReport {
  readonly verdict: 'safe' | 'unsafe' | 'unknown';
  readonly reason?: string;
  readonly certified?: boolean;
  readonly cutset?: string;
  readonly schedule?: string;
  readonly stats: readonly VerifyStep[];
  readonly millis?: number;
  /** verify's observed-bounds fast path (engine/houdini.ts), when it ran. */
  readonly houdini?: { readonly proved: boolean; readonly millis?: number };
  readonly [key: string]: unknown;
}

export interface Interpretation {
  readonly status: RunStatus;
  /** Why the run is not a plain verdict: the engine's reason, the rejection message, the error. */
  readonly reason?: string;
  readonly report?: VerifyReport;
}

/** `file:line:col: ` at the start of a diagnostic (lib/diagnostics.ts). */
const POSITIONED = /^.+:\d+:\d+: /;

function firstLine(text: string): string | undefined {
  return text.split('\n').map((l) => l.trim()).find((l) => l !== '');
}

/** Parses and minimally validates the JSON object; returns an error message instead when malformed. */
export function parseVerifyReport(stdout: string): VerifyReport | string {
  let data: unknown;
  try {
    data = JSON.parse(stdout);
  } catch {
    const line = firstLine(stdout);
    return line === undefined ? 'no JSON output' : `output is not JSON: ${line.slice(0, 120)}`;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'JSON output is not an object';
  const obj = data as Record<string, unknown>;
  if (obj.verdict !== 'safe' && obj.verdict !== 'unsafe' && obj.verdict !== 'unknown') return `JSON output has no valid verdict (${JSON.stringify(obj.verdict)})`;
  if (obj.stats !== undefined && !Array.isArray(obj.stats)) return 'JSON output: stats is not an array';
  const stats = (Array.isArray(obj.stats) ? obj.stats : []).filter((s): s is VerifyStep => typeof s === 'object' && s !== null);
  return { ...obj, verdict: obj.verdict, stats } as VerifyReport;
}

export function interpretOutcome(outcome: CliOutcome, timeoutSeconds: number): Interpretation {
  if (outcome.spawnError !== undefined) return { status: 'error', reason: `cannot start the CLI: ${outcome.spawnError}` };
  if (outcome.killed) return { status: 'timeout', reason: `killed by the harness: no answer within the ${timeoutSeconds} s timeout plus grace` };
  if (outcome.exitCode === null) return { status: 'error', reason: `CLI terminated by ${outcome.signal ?? 'a signal'}` };
  const message = firstLine(outcome.stderr) ?? firstLine(outcome.stdout);
  switch (outcome.exitCode) {
    case VERIFY_EXIT.inputError:
      // A rejected program is reported at a source position or as `unsupported:`; an exit 3 without
      // either means the harness invoked farkas wrongly (unknown option, missing file, bad function).
      if (message !== undefined && (POSITIONED.test(message) || /\bunsupported:/.test(message))) return { status: 'rejected', reason: message };
      return { status: 'error', reason: `farkas refused the invocation: ${message ?? '(no message)'}` };
    case VERIFY_EXIT.internalError:
      return { status: 'error', reason: message ?? 'internal error (no message)' };
    case VERIFY_EXIT.safe:
    case VERIFY_EXIT.unsafe:
    case VERIFY_EXIT.unknown: {
      const report = parseVerifyReport(outcome.stdout);
      if (typeof report === 'string') return { status: 'error', reason: `exit ${outcome.exitCode} but ${report}` };
      if (VERIFY_EXIT[report.verdict] !== outcome.exitCode) {
        return { status: 'error', reason: `verdict ${report.verdict} contradicts exit code ${outcome.exitCode}`, report };
      }
      // The contract: 'safe' only with a certificate. An uncertified 'safe' is a bug, not a proof.
      if (report.verdict === 'safe' && report.certified !== true) return { status: 'error', reason: 'verdict safe without a certificate (certified is not true)', report };
      return { status: report.verdict, ...(report.reason !== undefined ? { reason: report.reason } : {}), report };
    }
    default:
      return { status: 'error', reason: `unexpected exit code ${outcome.exitCode}${message ? `: ${message}` : ''}` };
  }
}

export function judge(expected: Expected, status: RunStatus): Correctness {
  if (status === 'error') return 'error';
  if (status === 'safe' || status === 'unsafe') return status === expected ? 'correct' : 'wrong';
  return 'inconclusive';
}

/** One row of the benchmark table: a task run with one cut-set. */
export interface RunRecord {
  readonly task: string;
  readonly file: string;
  readonly expected: Expected;
  readonly cutset: string;
  readonly status: RunStatus;
  readonly correctness: Correctness;
  readonly reason?: string;
  /** The step that decided the run (the last one attempted). */
  readonly template?: string;
  readonly widths?: VerifyStep['widths'];
  /** Summary pairs per procedure in that step (recursive programs only). */
  readonly q?: number;
  readonly steps: number;
  readonly variables?: number;
  readonly clauses?: number;
  /** SAT time summed over all steps (wall-clock of each call, solver start-up included). */
  readonly satMillis?: number;
  /** Time inside the solver summed over all steps, when the back end reports it. */
  readonly solverMillis?: number;
  /** The engine's own time (`millis` of the JSON). */
  readonly engineMillis?: number;
  /** Wall-clock time of the child process, start-up included. */
  readonly wallMillis: number;
  readonly exitCode: number | null;
  /** The CLI's JSON object, verbatim, when there was one. */
  readonly report?: VerifyReport;
}

export function toRecord(task: { id: string; file: string; expected: Expected }, cutset: string, outcome: CliOutcome, timeoutSeconds: number): RunRecord {
  const { status, reason, report } = interpretOutcome(outcome, timeoutSeconds);
  const last = report?.stats[report.stats.length - 1];
  const satTimes = report?.stats.map((s) => s.satMs).filter((t): t is number => typeof t === 'number') ?? [];
  const solverTimes = report?.stats.map((s) => s.solverMs).filter((t): t is number => typeof t === 'number') ?? [];
  const houdiniMillis = report?.houdini?.millis ?? 0;
  return {
    task: task.id,
    file: task.file,
    expected: task.expected,
    cutset,
    status,
    correctness: judge(task.expected, status),
    ...(reason !== undefined ? { reason } : {}),
    // A proof by the observed bounds is named as such: the last template step is the one that failed.
    ...(report?.houdini?.proved ? { template: 'houdini' } : last?.template !== undefined ? { template: last.template } : {}),
    ...(last?.widths !== undefined ? { widths: last.widths } : {}),
    ...(typeof last?.summaries === 'number' ? { q: last.summaries } : {}),
    steps: report?.stats.length ?? 0,
    ...(typeof last?.variables === 'number' ? { variables: last.variables } : {}),
    ...(typeof last?.clauses === 'number' ? { clauses: last.clauses } : {}),
    ...(satTimes.length > 0 ? { satMillis: satTimes.reduce((a, b) => a + b, 0) } : {}),
    // Houdini's checker rounds are solving too (z3's start-up excluded, like MiniSat's compile).
    ...(solverTimes.length > 0 || houdiniMillis > 0 ? { solverMillis: solverTimes.reduce((a, b) => a + b, 0) + houdiniMillis } : {}),
    ...(typeof report?.millis === 'number' ? { engineMillis: report.millis } : {}),
    wallMillis: outcome.wallMillis,
    exitCode: outcome.exitCode,
    ...(report !== undefined ? { report } : {}),
  };
}
