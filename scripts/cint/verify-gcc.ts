// The native side of the verifier's gcc-differential tester (verify-compare.ts): verification tasks
// (verify-task.ts) compiled with gcc and the undefined-behaviour sanitizer, and run on chosen inputs —
// a counterexample of farkas's, or probe inputs where farkas says "safe".
//
// One compilation per batch of tasks, before the inputs are known (it runs while farkas verifies):
// the batch file holds each task's gcc text (print.ts) with its globals and f renamed `p<k>_…`, a
// `cint_run_<k>` calling `p<k>_f` with the parameters' values, and a main that reads runs from a file
// — one a line: the task, the run's index, the parameters' values and the nondet values, every value
// as an unsigned 64-bit number (its two's complement) that the casts bring back to its type. Each run
// is a forked child: it starts from the globals' initial values, and from a sanitizer that has
// reported nothing yet (the sanitizer reports each source location once per process). `cint_nondet`
// hands out the run's nondet values in order (printing a marker past the last), and
// `__VERIFIER_assert` prints a marker line instead of aborting, so that the run goes on to its end
// and the sanitizer's reports (recovering, in the same unbuffered output) come out in order with it.
// A child that dies (a trap after a report, as for INT_MIN / -1) is reported by the parent.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CProgram } from './ast.js';
import { classifyUb, GCC_FLAGS, run, type Exit, type UbReport } from './gcc.js';
import { BARRIER_MACRO, NONDET_FUNCTION, printBody, typeText } from './print.js';

/** One run of a task's f: the parameters' values and the nondet values in the order f reads them. */
export interface InputVector {
  readonly params: readonly bigint[];
  readonly nondet: readonly bigint[];
}

export interface GccRun {
  /** The assertion failed (its marker was printed). */
  readonly assertionFailed: boolean;
  /** The sanitizer's reports before the assertion's marker (every report when it did not fail). */
  readonly ubBefore: readonly UbReport[];
  /** f read more nondet values than the run had (each extra one was 0). */
  readonly nondetExhausted: boolean;
  /** Nondet values f read. */
  readonly nondetUsed: number;
  /** How the process died inside this run, or null. */
  readonly crashed: string | null;
  /** Output lines that are neither reports nor markers. */
  readonly otherOutput: readonly string[];
}

/** Most nondet values one run can take (a task reads one per nondet input). */
export const MAX_NONDET = 64;
const ASSERT_MARKER = 'CINT-ASSERT-FAILED';
const EXHAUSTED_MARKER = 'CINT-NONDET-EXHAUSTED';

/** The definitions the gcc texts of tasks call (see print.ts): after the programs, not static. */
export function harnessDefinitions(): string[] {
  return [
    `static unsigned long long cint_nd[${MAX_NONDET}];`,
    'static int cint_nd_n, cint_nd_i;',
    `unsigned long long ${NONDET_FUNCTION}(void) {`,
    `  if (cint_nd_i >= cint_nd_n) { printf("${EXHAUSTED_MARKER}\\n"); return 0; }`,
    '  return cint_nd[cint_nd_i++];',
    '}',
    `void __VERIFIER_assert(int cond) { if (!cond) printf("${ASSERT_MARKER}\\n"); }`,
  ];
}

/** A value as the harness reads it: modulo 2^64. */
export function wireValue(v: bigint): string {
  return BigInt.asUintN(64, v).toString();
}

/** The call of f with the parameters `args[0]`, `args[1]`, … (unsigned long long, cast to each
 * parameter's type), as a line of C. */
function callLine(p: CProgram, prefix: string, args: string, indent: string): string {
  const call = p.params.map((q, i) => `(${typeText(q.type, 'gcc', p.dataModel)})${args}[${i}]`).join(', ');
  return `${indent}${prefix}f(${call});`;
}

interface BatchSource {
  readonly text: string;
  readonly starts: readonly number[];
  readonly ends: readonly number[];
}

function batchSource(programs: readonly CProgram[]): BatchSource {
  const lines = ['#include <stdio.h>', '#include <stdlib.h>', '#include <sys/wait.h>', '#include <unistd.h>', BARRIER_MACRO];
  const starts: number[] = [];
  const ends: number[] = [];
  programs.forEach((p, k) => {
    starts.push(lines.length + 1);
    lines.push(`// task ${k}: ${p.id} (${p.dataModel})`);
    lines.push(...printBody(p, { flavour: 'gcc', prefix: `p${k}_` }).lines);
    ends.push(lines.length);
    lines.push(`static void cint_run_${k}(const unsigned long long *a) {`, callLine(p, `p${k}_`, 'a', '  '), '}');
  });
  lines.push(
    ...harnessDefinitions(),
    `static void (*const cint_runs[])(const unsigned long long *) = { ${programs.map((_, k) => `cint_run_${k}`).join(', ')} };`,
    'int main(int argc, char **argv) {',
    '  setvbuf(stdout, 0, _IONBF, 0);',
    '  FILE *in = argc > 1 ? fopen(argv[1], "r") : 0;',
    '  if (!in) return 2;',
    '  int k, j, n;',
    '  unsigned long long a[16];',
    '  while (fscanf(in, "%d %d %d", &k, &j, &n) == 3) {',
    '    if (k < 0 || k >= (int)(sizeof cint_runs / sizeof cint_runs[0]) || n < 0 || n > 16) return 2;',
    '    for (int i = 0; i < n; i++) if (fscanf(in, "%llu", &a[i]) != 1) return 2;',
    `    if (fscanf(in, "%d", &cint_nd_n) != 1 || cint_nd_n < 0 || cint_nd_n > ${MAX_NONDET}) return 2;`,
    '    for (int i = 0; i < cint_nd_n; i++) if (fscanf(in, "%llu", &cint_nd[i]) != 1) return 2;',
    '    cint_nd_i = 0;',
    '    printf("BEGIN %d\\n", j);',
    '    pid_t pid = fork();',
    '    if (pid < 0) return 3;',
    '    if (pid == 0) {',
    '      cint_runs[k](a);',
    '      printf("END %d %d\\n", j, cint_nd_i);',
    '      _exit(0);',
    '    }',
    '    int status;',
    '    if (waitpid(pid, &status, 0) != pid) return 3;',
    '    if (WIFSIGNALED(status)) printf("CRASH %d signal %d\\n", j, WTERMSIG(status));',
    '    else if (WEXITSTATUS(status) != 0) printf("CRASH %d exit status %d\\n", j, WEXITSTATUS(status));',
    '  }',
    '  return 0;',
    '}',
    '',
  );
  return { text: lines.join('\n'), starts, ends };
}

/** The stand-alone gcc program of a task run on one input vector (for a saved case): the barrier
 * macro, the task, the harness, and a main that runs f once. */
export function verifyGccText(p: CProgram, input: InputVector): string {
  return [
    BARRIER_MACRO,
    ...printBody(p, { flavour: 'gcc' }).lines,
    '#include <stdio.h>',
    ...harnessDefinitions(),
    'int main(void) {',
    '  setvbuf(stdout, 0, _IONBF, 0);',
    `  static const unsigned long long args[] = { ${[...input.params.map(wireValue), '0'].join(', ')} };`,
    ...input.nondet.map((v, i) => `  cint_nd[${i}] = ${wireValue(v)}ULL;`),
    `  cint_nd_n = ${input.nondet.length};`,
    callLine(p, '', 'args', '  '),
    '  printf("done\\n");',
    '  return 0;',
    '}',
    '',
  ].join('\n');
}

const REPORT = /^(.*):(\d+):(\d+): runtime error: (.*)$/;

export interface RunRequest {
  /** Index of the task in the batch. */
  readonly task: number;
  readonly input: InputVector;
}

/** A batch of tasks compiled into one executable; `runs` may be called many times, then `dispose`. */
export class VerifyBatch {
  private calls = 0;

  private constructor(
    private readonly dir: string,
    private readonly exe: string | null,
    private readonly source: BatchSource | null,
    /** gcc's error per task that did not compile (a tester bug); the batch then holds the others. */
    readonly compileErrors: ReadonlyMap<number, string>,
    /** Batch index of each task (null: did not compile). */
    private readonly slot: readonly (number | null)[],
    private readonly programs: readonly CProgram[],
  ) {}

  static async compile(programs: readonly CProgram[], options: { gcc?: string } = {}): Promise<VerifyBatch> {
    const gcc = options.gcc ?? 'gcc';
    const dir = mkdtempSync(join(tmpdir(), 'cint-verify-'));
    const attempt = async (included: readonly number[]): Promise<{ ok: boolean; stderr: string; source: BatchSource }> => {
      const source = batchSource(included.map((i) => programs[i]!));
      const src = join(dir, 'batch.c');
      writeFileSync(src, source.text);
      const r = await run(gcc, [...GCC_FLAGS, '-o', join(dir, 'batch'), src], { timeoutMs: 600_000 });
      return { ok: r.code === 0, stderr: r.stderr, source };
    };
    const all = programs.map((_, i) => i);
    if (programs.length === 0) return new VerifyBatch(dir, null, null, new Map(), [], programs);
    let result = await attempt(all);
    const errors = new Map<number, string>();
    let included = all;
    if (!result.ok) {
      // A tester bug: find the tasks gcc rejects by compiling each alone, and leave them out.
      for (const i of all) {
        const alone = await attempt([i]);
        if (!alone.ok) errors.set(i, alone.stderr.trim() || 'gcc failed');
      }
      included = all.filter((i) => !errors.has(i));
      result = included.length > 0 ? await attempt(included) : result;
      if (included.length > 0 && !result.ok) {
        for (const i of included) errors.set(i, `the batch did not compile: ${result.stderr.trim()}`);
        included = [];
      }
    }
    const slot: (number | null)[] = programs.map(() => null);
    included.forEach((i, k) => { slot[i] = k; });
    return new VerifyBatch(dir, included.length > 0 ? join(dir, 'batch') : null, included.length > 0 ? result.source : null, errors, slot, programs);
  }

  /** Runs each request; one result per request, in order (null for a task that did not compile). */
  async runs(requests: readonly RunRequest[], options: { runTimeoutMs?: number } = {}): Promise<(GccRun | null)[]> {
    const results: (GccRun | null)[] = requests.map(() => null);
    const lines: string[] = [];
    requests.forEach((r, index) => {
      const k = this.slot[r.task];
      if (k === null || k === undefined || !this.exe) return;
      const p = this.programs[r.task]!;
      if (r.input.params.length !== p.params.length) throw new Error(`cint: run of task ${p.id} with ${r.input.params.length} parameters, expected ${p.params.length}`);
      const nondet = r.input.nondet.slice(0, MAX_NONDET);
      lines.push(`${k} ${index} ${r.input.params.length} ${r.input.params.map(wireValue).join(' ')} ${nondet.length} ${nondet.map(wireValue).join(' ')}`);
    });
    if (lines.length === 0 || !this.exe || !this.source) return results;
    const inFile = join(this.dir, `in-${this.calls}.txt`);
    const outFile = join(this.dir, `out-${this.calls}.txt`);
    this.calls++;
    writeFileSync(inFile, lines.join('\n') + '\n');
    const fd = openSync(outFile, 'w');
    let exit: Exit;
    try {
      exit = await run(this.exe, [inFile], { stdoutFd: fd, timeoutMs: options.runTimeoutMs ?? 300_000, env: { ...process.env, UBSAN_OPTIONS: 'print_stacktrace=0:halt_on_error=0' } });
    } finally {
      closeSync(fd);
    }
    if (exit.code !== 0 || exit.timedOut) {
      throw new Error(`cint: the verification harness ${exit.timedOut ? 'timed out' : `exited with ${exit.code ?? exit.signal}`}: ${readFileSync(outFile, 'utf8').split('\n').slice(-5).join(' | ')}`);
    }
    type Collected = { ub: UbReport[]; failed: boolean; ubBefore: UbReport[]; exhausted: boolean; used: number; ended: boolean; crashed: string | null; other: string[] };
    let current: Collected | null = null;
    let index = -1;
    let line1 = 0;
    let lineN = 0;
    const close = (): void => {
      if (!current) return;
      const c = current;
      results[index] = {
        assertionFailed: c.failed,
        ubBefore: c.failed ? c.ubBefore : c.ub,
        nondetExhausted: c.exhausted,
        nondetUsed: c.used,
        crashed: c.crashed ?? (c.ended ? null : 'no output'),
        otherOutput: c.other,
      };
      current = null;
    };
    for (const line of readFileSync(outFile, 'utf8').split('\n')) {
      if (line === '') continue;
      const begin = /^BEGIN (\d+)$/.exec(line);
      if (begin) {
        close();
        index = Number(begin[1]);
        const k = this.slot[requests[index]!.task]!;
        line1 = this.source.starts[k]!;
        lineN = this.source.ends[k]!;
        current = { ub: [], failed: false, ubBefore: [], exhausted: false, used: 0, ended: false, crashed: null, other: [] };
        continue;
      }
      if (!current) continue;
      const c: Collected = current;
      const end = /^END (\d+) (\d+)$/.exec(line);
      const crash = /^CRASH (\d+) (.*)$/.exec(line);
      const report = REPORT.exec(line);
      if (end) {
        c.ended = true;
        c.used = Number(end[2]);
      } else if (crash) {
        c.crashed = crash[2]!;
      } else if (report) {
        const batchLine = Number(report[2]);
        const inside = batchLine >= line1 && batchLine <= lineN;
        c.ub.push({ line: inside ? batchLine - line1 + 1 : -1, col: Number(report[3]), kind: classifyUb(report[4]!), message: report[4]! });
      } else if (line === ASSERT_MARKER) {
        if (!c.failed) c.ubBefore = [...c.ub];
        c.failed = true;
      } else if (line === EXHAUSTED_MARKER) {
        c.exhausted = true;
      } else {
        c.other.push(line);
      }
    }
    close();
    return results;
  }

  dispose(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}
