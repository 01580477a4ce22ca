// `dimacs:CMD [ARGS…]`: any SAT solver executable that reads a DIMACS file and answers in the
// SAT-competition format (`s SATISFIABLE` / `s UNSATISFIABLE` and `v …` model lines, exit codes
// 10 / 20), e.g. `dimacs:cadical -q`. The DIMACS path is appended as the last argument, or put where
// ARGS say `%i`. MiniSat-style solvers write their answer (`SAT` / `UNSAT` / `INDET`, then the model)
// to a result file named by `%o`; `dimacs:minisat` gets `%i %o` by default.
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readFile } from 'node:fs/promises';
import { basename, delimiter, isAbsolute, join, resolve } from 'node:path';
import { InputError } from '../diagnostics.js';
import {
  assertWellFormedCnf,
  CANCELLED_REASON,
  checkedSat,
  conflictLimitReason,
  timeoutReason,
  trivialAnswer,
  unknownResult,
  unsatResult,
} from './cnf-check.js';
import { writeDimacsFile } from './dimacs.js';
import type { Cnf, SatBackend, SatResult, SolveOptions } from './types.js';

const EXIT_SATISFIABLE = 10;
const EXIT_UNSATISFIABLE = 20;
const STDERR_TAIL_CHARS = 300;

export interface SolverOutput {
  /** From the `s` line, or null when there is none. */
  readonly status: 'sat' | 'unsat' | 'unknown' | null;
  /** Literals of the `v` lines (without the closing 0), or null when there are none. */
  readonly literals: number[] | null;
}

/** Reads the SAT-competition output format; other lines (comments `c …`, statistics) are ignored. */
export function parseSolverOutput(stdout: string): SolverOutput {
  let status: SolverOutput['status'] = null;
  let literals: number[] | null = null;
  for (const rawLine of stdout.split('\n')) {
    const line = rawLine.trim();
    if (line.startsWith('s ')) {
      const answer = line.slice(2).trim();
      status = answer === 'SATISFIABLE' ? 'sat' : answer === 'UNSATISFIABLE' ? 'unsat' : 'unknown';
    } else if (line.startsWith('v ') || line === 'v') {
      literals ??= [];
      for (const token of line.slice(1).trim().split(/\s+/)) {
        if (token === '') continue;
        const literal = Number(token);
        if (Number.isInteger(literal) && literal !== 0) literals.push(literal);
      }
    }
  }
  return { status, literals };
}

/** The result file of MiniSat-style solvers: `SAT` and a model line, `UNSAT`, or `INDET`. */
export function parseResultFile(text: string): SolverOutput {
  const [first = '', ...rest] = text.split('\n');
  const answer = first.trim();
  const status = answer === 'SAT' ? 'sat' : answer === 'UNSAT' ? 'unsat' : answer === 'INDET' ? 'unknown' : null;
  if (status !== 'sat') return { status, literals: null };
  const literals = rest
    .join(' ')
    .split(/\s+/)
    .filter((token) => token !== '')
    .map(Number)
    .filter((literal) => Number.isInteger(literal) && literal !== 0);
  return { status, literals };
}

const INPUT_PLACEHOLDER = '%i';
const RESULT_FILE_PLACEHOLDER = '%o';
/** How to bound the search of known solvers by conflicts (SolveOptions.conflicts); other commands
 * run without one, bounded by the time limit only. */
const CONFLICT_LIMIT_OPTIONS: Readonly<Record<string, (conflicts: number) => string[]>> = {
  cadical: (conflicts) => ['-c', String(conflicts)],
  kissat: (conflicts) => [`--conflicts=${conflicts}`],
};
/** Solvers whose command line is `CMD [options] <input> <result-file>`. */
const RESULT_FILE_SOLVERS = new Set(['minisat', 'minisat_static', 'glucose', 'glucose-syrup']);

/**
 * Splits `CMD ARGS…` on whitespace (no quoting) and resolves CMD to an executable file. The returned
 * args contain the `%i` (and for MiniSat-style solvers `%o`) placeholders.
 */
export function parseCommandSpec(commandLine: string): { readonly executable: string; readonly args: string[] } {
  const [command, ...args] = commandLine.trim().split(/\s+/).filter((word) => word !== '');
  if (!command) throw new InputError('error', "SAT back end 'dimacs:' needs a command, e.g. 'dimacs:cadical -q'", null);
  const executable = findExecutable(command);
  if (!executable) {
    throw new InputError('error', `SAT solver command '${command}' not found${command.includes('/') ? '' : ' on PATH'} or not executable`, null);
  }
  const hasPlaceholder = args.includes(INPUT_PLACEHOLDER) || args.includes(RESULT_FILE_PLACEHOLDER);
  if (!hasPlaceholder) {
    args.push(INPUT_PLACEHOLDER);
    if (RESULT_FILE_SOLVERS.has(basename(executable))) args.push(RESULT_FILE_PLACEHOLDER);
  }
  return { executable, args };
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** `command` resolved as a shell would: a path, else the first executable file of that name on PATH. */
export function findExecutable(command: string): string | null {
  if (command.includes('/')) {
    const path = isAbsolute(command) ? command : resolve(command);
    return isExecutableFile(path) ? path : null;
  }
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, command);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

interface ProcessOutcome {
  readonly kind: 'exited' | 'timeout' | 'cancelled' | 'spawn-failed';
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Contents of the `%o` result file, when the command has one and wrote it. */
  readonly resultFile: string | null;
  readonly detail?: string;
}

export class ExternalBackend implements SatBackend {
  readonly name: string;
  private readonly executable: string;
  private readonly args: readonly string[];

  /** `commandLine` is the part after `dimacs:`; throws InputError when the command is not found. */
  constructor(commandLine: string) {
    const { executable, args } = parseCommandSpec(commandLine);
    this.executable = executable;
    this.args = args;
    this.name = `dimacs:${commandLine.trim()}`;
  }

  async solve(cnf: Cnf, options: SolveOptions = {}): Promise<SatResult> {
    const startedAt = performance.now();
    assertWellFormedCnf(cnf);
    const trivial = trivialAnswer(cnf, this.name, startedAt);
    if (trivial) return trivial;
    if (options.signal?.aborted) return unknownResult(CANCELLED_REASON, this.name, startedAt);

    let dir: string;
    try {
      dir = await mkdtemp(join(tmpdir(), 'farkas-sat-'));
    } catch (error) {
      return unknownResult(`could not create a temporary directory: ${messageOf(error)}`, this.name, startedAt);
    }
    try {
      const input = join(dir, 'problem.cnf');
      const resultFile = join(dir, 'result.txt');
      try {
        await writeDimacsFile(cnf, input);
      } catch (error) {
        return unknownResult(`could not write the DIMACS file: ${messageOf(error)}`, this.name, startedAt);
      }
      const remaining =
        options.timeLimitMs === undefined ? undefined : Math.max(1, options.timeLimitMs - (performance.now() - startedAt));
      const limitOption = options.conflicts === undefined ? undefined : CONFLICT_LIMIT_OPTIONS[basename(this.executable)];
      const args = [
        ...(limitOption ? limitOption(options.conflicts!) : []),
        ...this.args.map((arg) => (arg === INPUT_PLACEHOLDER ? input : arg === RESULT_FILE_PLACEHOLDER ? resultFile : arg)),
      ];
      const outcome = await this.run(args, remaining, options.signal);
      if (outcome.kind === 'exited' && this.args.includes(RESULT_FILE_PLACEHOLDER)) {
        const written = await readFile(resultFile, 'utf8').catch(() => null);
        return this.interpret(cnf, { ...outcome, resultFile: written }, options, startedAt);
      }
      return this.interpret(cnf, outcome, options, startedAt, limitOption !== undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** `limited`: the command was given the conflict budget, so its UNKNOWN means the budget ran out. */
  private interpret(cnf: Cnf, outcome: ProcessOutcome, options: SolveOptions, startedAt: number, limited = false): SatResult {
    switch (outcome.kind) {
      case 'timeout':
        return unknownResult(timeoutReason(options.timeLimitMs!), this.name, startedAt);
      case 'cancelled':
        return unknownResult(CANCELLED_REASON, this.name, startedAt);
      case 'spawn-failed':
        return unknownResult(`could not run ${this.executable}: ${outcome.detail}`, this.name, startedAt);
      case 'exited':
        break;
    }
    const { status, literals } =
      outcome.resultFile !== null ? parseResultFile(outcome.resultFile) : parseSolverOutput(outcome.stdout);
    const answer =
      status ?? (outcome.code === EXIT_SATISFIABLE ? 'sat' : outcome.code === EXIT_UNSATISFIABLE ? 'unsat' : null);
    if (answer === 'unsat') return unsatResult(this.name, startedAt);
    if (answer === 'sat') {
      if (!literals) return unknownResult('solver answered SATISFIABLE without a model', this.name, startedAt);
      const model = new Array<boolean>(cnf.numVars + 1).fill(false);
      for (const literal of literals) {
        if (Math.abs(literal) <= cnf.numVars) model[Math.abs(literal)] = literal > 0;
      }
      return checkedSat(cnf, model, this.name, startedAt);
    }
    // Only an UNKNOWN answer is the budget's end (cadical says it as the comment `c UNKNOWN` and
    // exits 0); a crash or a kill keeps its own reason.
    if (limited && (status === 'unknown' || (status === null && outcome.code === 0))) return unknownResult(conflictLimitReason(options.conflicts!), this.name, startedAt);
    const stderrTail = outcome.stderr.trim().slice(-STDERR_TAIL_CHARS);
    const ended = outcome.signal ? `was killed by ${outcome.signal}` : `exited with code ${outcome.code}`;
    const said = status === 'unknown' ? 'answered UNKNOWN' : `${ended} without an answer`;
    return unknownResult(`${this.name} ${said}${stderrTail ? `: ${stderrTail}` : ''}`, this.name, startedAt);
  }

  private run(args: string[], timeLimitMs: number | undefined, signal: AbortSignal | undefined): Promise<ProcessOutcome> {
    return new Promise<ProcessOutcome>((resolvePromise) => {
      const child = spawn(this.executable, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (data: Buffer) => stdout.push(data));
      child.stderr.on('data', (data: Buffer) => stderr.push(data));

      let stopped: 'timeout' | 'cancelled' | null = null;
      let spawnError: Error | null = null;
      const stop = (why: 'timeout' | 'cancelled') => {
        stopped ??= why;
        child.kill('SIGKILL');
      };
      const onAbort = () => stop('cancelled');
      const timer = timeLimitMs === undefined ? undefined : setTimeout(() => stop('timeout'), timeLimitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      // The signal may have fired while the DIMACS file was written: an abort event already past is
      // not delivered to a listener added now.
      if (signal?.aborted) onAbort();

      child.on('error', (error) => {
        spawnError ??= error;
      });
      // 'close' comes after 'error' too (also when the spawn itself failed) and after the pipes end.
      child.on('close', (code, exitSignal) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const captured = {
          signal: exitSignal,
          stdout: Buffer.concat(stdout).toString('utf8'),
          stderr: Buffer.concat(stderr).toString('utf8'),
          resultFile: null,
        };
        if (stopped) resolvePromise({ kind: stopped, code, ...captured });
        else if (spawnError) resolvePromise({ kind: 'spawn-failed', code, ...captured, detail: spawnError.message });
        else resolvePromise({ kind: 'exited', code, ...captured });
      });
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
