// The native side of the gcc-differential tester: compile many generated programs into one C file
// with gcc and the undefined-behaviour sanitizer, run it, and split its output per program: the
// globals' final values and the sanitizer's reports. One compilation per batch because compiling is
// what costs (gcc starts once, not once per program).
//
// The batch file holds each program's gcc text (print.ts) with its globals and f renamed `p<k>_…`, a
// `cint_run_<k>` calling `p<k>_f` on the inputs and printing every global as `name=value`, and a main
// that runs them in order between `BEGIN k` and `END k` lines, from the program given as argv[1]. The
// sanitizer recovers (no -fno-sanitize-recover) so the run goes on after a report; stdout is
// unbuffered and stdout and stderr are the same open file, so each `file:line:col: runtime error: …`
// report lands between the BEGIN and END of the program that caused it. A run that dies inside program
// k (a trap, a signal) is restarted at k + 1. Report lines are mapped back to the program's own lines
// (those of its farkas and gcc texts).
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CProgram } from './ast.js';
import { BARRIER_MACRO, callAndPrint, printBody } from './print.js';

export const GCC_FLAGS: readonly string[] = ['-O0', '-fsanitize=undefined', '-fsanitize=float-cast-overflow', '-w'];

export type UbReportKind = 'overflow' | 'shift' | 'other';

export interface UbReport {
  /** Line in the program's own text (farkas and gcc texts agree); -1 if outside the program. */
  readonly line: number;
  readonly col: number;
  readonly kind: UbReportKind;
  /** The sanitizer's message after `runtime error: `. */
  readonly message: string;
}

export interface GccProgramResult {
  /** Every printed global (null when the program did not get to print: compile error, crash). */
  readonly values: ReadonlyMap<string, bigint> | null;
  /** The sanitizer's reports during this program's run, in order. */
  readonly ub: readonly UbReport[];
  /** How the process died inside this program (a signal, an exit status), or null. */
  readonly crashed: string | null;
  /** gcc's error when the program did not compile (a tester bug), or null. */
  readonly compileError: string | null;
  /** Output lines of this program that are neither values nor reports. */
  readonly otherOutput: readonly string[];
}

export interface GccOptions {
  /** The compiler; default `gcc`. */
  readonly gcc?: string;
  /** Bound on one run of the batch executable; default 120 s. */
  readonly runTimeoutMs?: number;
}

/** The sanitizer's report kind: overflow is what farkas models (signed overflow, including negation
 * and the quotient INT_MIN / -1 of `/` and `%`); shifts and anything else are not compared. */
export function classifyUb(message: string): UbReportKind {
  if (/^signed integer overflow|^negation of .* cannot be represented|^division of .* by -1 cannot be represented/.test(message)) return 'overflow';
  if (/shift/.test(message)) return 'shift';
  return 'other';
}

interface BatchSource {
  readonly text: string;
  /** Line of each program's line 1 (its leading comment) in the batch file. */
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

export function batchSource(programs: readonly CProgram[]): BatchSource {
  const lines = ['#include <stdio.h>', '#include <stdlib.h>', BARRIER_MACRO];
  const starts: number[] = [];
  const ends: number[] = [];
  programs.forEach((p, k) => {
    starts.push(lines.length + 1);
    lines.push(`// program ${k}: ${p.id} (${p.dataModel})`);
    lines.push(...printBody(p, { flavour: 'gcc', prefix: `p${k}_` }).lines);
    ends.push(lines.length);
    lines.push(`static void cint_run_${k}(void) {`, ...callAndPrint(p, `p${k}_`, '  '), '}');
  });
  lines.push(
    `static void (*const cint_runs[])(void) = { ${programs.map((_, k) => `cint_run_${k}`).join(', ')} };`,
    'int main(int argc, char **argv) {',
    '  setvbuf(stdout, 0, _IONBF, 0);',
    '  int start = argc > 1 ? atoi(argv[1]) : 0;',
    `  for (int k = start; k < ${programs.length}; k++) {`,
    '    printf("BEGIN %d\\n", k);',
    '    cint_runs[k]();',
    '    printf("END %d\\n", k);',
    '  }',
    '  return 0;',
    '}',
    '',
  );
  return { text: lines.join('\n'), starts, ends };
}

export interface Exit {
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Runs a command with stdout (and stderr with it) into `stdoutFd`, killed past the timeout. */
export function run(command: string, args: readonly string[], options: { stdoutFd?: number; timeoutMs: number; env?: NodeJS.ProcessEnv }): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const out = options.stdoutFd ?? 'ignore';
    const child = spawn(command, args, { stdio: ['ignore', out, options.stdoutFd ?? 'pipe'], env: options.env ?? process.env });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => { stderr += d; });
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, options.timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stderr, timedOut }); });
  });
}

const REPORT = /^(.*):(\d+):(\d+): runtime error: (.*)$/;
const VALUE = /^([A-Za-z_][A-Za-z0-9_]*)=(-?\d+)$/;

interface Collected {
  values: Map<string, bigint>;
  ub: UbReport[];
  other: string[];
  ended: boolean;
  crashed: string | null;
}

/** Compiles and runs the programs; one result per program, in order. */
export async function runGccBatch(programs: readonly CProgram[], options: GccOptions = {}): Promise<GccProgramResult[]> {
  if (programs.length === 0) return [];
  const gcc = options.gcc ?? 'gcc';
  const dir = mkdtempSync(join(tmpdir(), 'cint-'));
  try {
    const source = batchSource(programs);
    const src = join(dir, 'batch.c');
    const exe = join(dir, 'batch');
    writeFileSync(src, source.text);
    const compiled = await run(gcc, [...GCC_FLAGS, '-o', exe, src], { timeoutMs: 600_000 });
    if (compiled.code !== 0) {
      if (programs.length > 1) {
        // A tester bug: find the programs gcc rejects by compiling each alone.
        const results: GccProgramResult[] = [];
        for (const p of programs) results.push(...(await runGccBatch([p], options)));
        return results;
      }
      return [{ values: null, ub: [], crashed: null, compileError: compiled.stderr.trim() || `gcc exit ${compiled.code}`, otherOutput: [] }];
    }
    const collected: Collected[] = programs.map(() => ({ values: new Map(), ub: [], other: [], ended: false, crashed: null }));
    const env = { ...process.env, UBSAN_OPTIONS: 'print_stacktrace=0:halt_on_error=0' };
    let start = 0;
    for (let attempt = 0; start < programs.length; attempt++) {
      const outFile = join(dir, `out-${attempt}.txt`);
      const fd = openSync(outFile, 'w');
      let exit: Exit;
      try {
        exit = await run(exe, [String(start)], { stdoutFd: fd, timeoutMs: options.runTimeoutMs ?? 120_000, env });
      } finally {
        closeSync(fd);
      }
      let current = -1;
      let last = start - 1;
      for (const line of readFileSync(outFile, 'utf8').split('\n')) {
        if (line === '') continue;
        const begin = /^BEGIN (\d+)$/.exec(line);
        const end = /^END (\d+)$/.exec(line);
        if (begin) {
          current = Number(begin[1]);
          last = current;
          continue;
        }
        if (end) {
          if (current >= 0) collected[current]!.ended = true;
          current = -1;
          continue;
        }
        if (current < 0) continue;
        const c = collected[current]!;
        const report = REPORT.exec(line);
        const value = VALUE.exec(line);
        if (report) {
          const batchLine = Number(report[2]);
          const line1 = source.starts[current]!;
          const inside = batchLine >= line1 && batchLine <= source.ends[current]!;
          c.ub.push({ line: inside ? batchLine - line1 + 1 : -1, col: Number(report[3]), kind: classifyUb(report[4]!), message: report[4]! });
        } else if (value) {
          c.values.set(value[1]!, BigInt(value[2]!));
        } else {
          c.other.push(line);
        }
      }
      if (exit.code === 0 && !exit.timedOut) break;
      // Died inside program `last` (or before any BEGIN: then in program `start`).
      const dead = Math.max(last, start);
      if (collected[dead]!.ended) break; // died after the last END (should not happen): nothing to redo
      collected[dead]!.crashed = exit.timedOut ? 'timeout' : exit.signal ? `signal ${exit.signal}` : `exit status ${exit.code}`;
      start = dead + 1;
    }
    return collected.map((c) => ({
      values: c.ended ? c.values : null,
      ub: c.ub,
      crashed: c.crashed ?? (c.ended ? null : 'no output'),
      compileError: null,
      otherOutput: c.other,
    }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
