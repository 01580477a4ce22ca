// The checker's z3 as a native process: `z3 -in`, kept alive for the run, when z3 is on PATH.
//
// Why: z3-solver's WASM build costs ~1.3 s to start and a check of a 46 KB query ~50–80 ms, where
// native z3 starts in ~10 ms and makes the same check in ~20 ms. The checker already speaks SMT-LIB
// text (lia-solver.ts), so the process serves the same requests as the WASM thread
// (checker-worker.ts), with the same semantics: each check starts from `(reset)` (a new context, so
// its answer and model depend on that check's text alone), declares the job's symbols, asserts the
// job's assertions and the check's goals, and runs z3's SMT core (`check-sat-using smt`, the WASM
// side's 'smt' tactic; after PREPROCESSING_TACTICS when the check asks for them) under the work limit
// (`:rlimit`, z3's resource units).
//
// The replies of a check are read up to an `(echo …)` marker of its own. A check whose time limit
// passes kills the process (z3 cannot take a command while it checks), as the WASM thread is
// terminated; its client then starts another.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { declarationsFor, describeUnknown, PREPROCESSING_TACTICS, rlimitFor, unknownReply, type CheckOutcome, type CheckReply, type CheckRequest, type Sort } from './checker-protocol.js';

export class NativeChecker {
  private readonly child: ChildProcessWithoutNullStreams;
  /** Replies to checks sent and not yet answered, in the order they were sent. */
  private readonly pending: { readonly id: number; readonly marker: string; readonly sentAt: number; readonly work: number | undefined; readonly resolve: (reply: CheckReply) => void; readonly timer?: NodeJS.Timeout }[] = [];
  private output = '';
  private nextId = 0;
  private failure: string | null = null;
  retired = false;
  timedOut = false;
  /** The current job's symbols and assertions (as the WASM thread keeps them). */
  private job = -1;
  private readonly sorts = new Map<string, Sort>();
  private readonly assertions: string[] = [];

  constructor(executable: string) {
    this.child = spawn(executable, ['-in'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.receive(text));
    this.child.stderr.on('data', () => undefined);
    this.child.stdin.on('error', () => undefined); // a write after z3 died: reported by 'exit'
    this.child.on('error', (error) => this.fail(`z3 failed: could not run native z3: ${error.message}`));
    this.child.on('exit', (code, signal) => this.fail(`z3 failed: native z3 exited (${signal ?? `code ${code}`})`));
    this.idle();
  }

  /** One check; past `timeLimitMs` (if given) the process is killed and the check answers 'unknown'. */
  check(request: Omit<CheckRequest, 'kind' | 'id'>, timeLimitMs?: number): Promise<CheckReply> {
    const id = this.nextId++;
    if (this.failure !== null) return Promise.resolve(unknownReply(id, this.failure));
    if (request.job !== this.job) {
      this.job = request.job;
      this.sorts.clear();
      this.assertions.length = 0;
    }
    for (const [symbol, sort] of request.symbols) this.sorts.set(symbol, sort);
    for (const term of request.assertions) this.assertions.push(term);
    const marker = `farkas-check-${id}`;
    const text = this.script([...this.assertions, ...request.goals], request.limits, marker);
    return new Promise((resolve) => {
      const timer = timeLimitMs === undefined ? undefined : setTimeout(() => this.timeOut(timeLimitMs), timeLimitMs);
      this.pending.push({ id, marker, sentAt: Date.now(), work: request.limits.work, resolve, ...(timer !== undefined ? { timer } : {}) });
      this.busy();
      this.child.stdin.write(text);
    });
  }

  /** Ends the process, a check under way too: it and every later one answer 'unknown'. */
  terminate(): Promise<void> {
    this.fail('z3 was interrupted (shutting down)');
    this.child.kill('SIGKILL');
    return Promise.resolve();
  }

  /** The commands of one check: a new context, the declarations the terms use, the terms, the check. */
  private script(terms: readonly string[], limits: CheckRequest['limits'], marker: string): string {
    const declared = new Set<string>();
    const tactic = limits.preprocess ? `(then ${PREPROCESSING_TACTICS.join(' ')})` : 'smt';
    return [
      '(reset)',
      `(set-option :rlimit ${rlimitFor(limits.work)})`,
      ...terms.flatMap((term) => declarationsFor(term, this.sorts, declared)),
      ...terms.map((t) => `(assert ${t})`),
      '(get-info :rlimit)',
      `(check-sat-using ${tactic})`,
      '(get-info :rlimit)',
      '(get-info :reason-unknown)',
      // Last: on an answer other than sat it is an error line, which is ignored.
      '(get-model)',
      `(echo "${marker}")`,
      '',
    ].join('\n');
  }

  private receive(text: string): void {
    this.output += text;
    for (;;) {
      const head = this.pending[0];
      if (head === undefined) return;
      const at = this.output.indexOf(`${head.marker}\n`);
      if (at < 0) return;
      const replyText = this.output.slice(0, at);
      this.output = this.output.slice(at + head.marker.length + 1);
      this.pending.shift();
      if (head.timer !== undefined) clearTimeout(head.timer);
      if (this.pending.length === 0) this.idle();
      head.resolve({ kind: 'checked', id: head.id, ...readReply(replyText, Date.now() - head.sentAt, head.work) });
    }
  }

  private timeOut(timeLimitMs: number): void {
    if (this.retired) return;
    this.timedOut = true;
    this.fail(`timeout after ${timeLimitMs} ms`);
    this.child.kill('SIGKILL');
  }

  private fail(reason: string): void {
    this.failure ??= reason;
    this.retired = true;
    for (const { id, sentAt, timer, resolve } of this.pending) {
      if (timer !== undefined) clearTimeout(timer);
      resolve(unknownReply(id, this.failure, Date.now() - sentAt));
    }
    this.pending.length = 0;
    this.idle();
  }

  /** While no check is pending, the process and its pipes do not keep Node alive. */
  private idle(): void {
    this.child.unref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as unknown as { unref?: () => void }).unref?.();
  }

  private busy(): void {
    this.child.ref();
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as unknown as { ref?: () => void }).ref?.();
  }
}

/** A check's replies: errors, the resource count before, the answer, the count after, z3's reason
 * for unknown, the model (or an error line where there is none). */
function readReply(text: string, millis: number, workLimit: number | undefined): Pick<CheckReply, 'outcome' | 'model'> {
  const answer = /^(sat|unsat|unknown)$/m.exec(text);
  const counts = [...text.matchAll(/^\(:rlimit (\d+)\)$/gm)].map((m) => Number(m[1]));
  const work = workLimit === undefined || counts.length < 2 ? 0 : Math.max(0, counts[1]! - counts[0]!);
  const error = /^\(error "((?:[^"\\]|\\.|"")*)"\)$/m.exec(answer === null ? text : text.slice(0, answer.index));
  if (answer === null || error !== null) {
    const message = error?.[1] ?? (text.trim() || 'no answer');
    return { outcome: { status: 'unknown', reason: `z3 failed: ${message}`, millis, work } };
  }
  const status = answer[1] as CheckOutcome['status'];
  if (status === 'unsat') return { outcome: { status, millis, work } };
  if (status === 'sat') {
    // The model follows the reason line; without that line the reply is not what was asked for.
    const reasonLine = /^\(:reason-unknown .*\)$/m.exec(text.slice(answer.index));
    if (reasonLine === null) return { outcome: { status: 'unknown', reason: `z3 failed: unexpected reply: ${text.trim().slice(0, 200)}`, millis, work } };
    return { outcome: { status, millis, work }, model: unwrapModel(text.slice(answer.index + reasonLine.index + reasonLine[0].length)) };
  }
  const reason = /^\(:reason-unknown "((?:[^"\\]|\\.|"")*)"\)$/m.exec(text)?.[1] ?? '';
  return { outcome: { status, reason: describeUnknown(reason, workLimit, millis, work), millis, work } };
}

/** `(get-model)` prints `( (define-fun …) … )`; the WASM side's model text is the definitions alone. */
function unwrapModel(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('(')) return trimmed;
  const inner = trimmed.slice(1, trimmed.lastIndexOf(')'));
  return inner.replace(/^\s*model\b/, '');
}
