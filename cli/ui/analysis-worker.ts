// The UI's analysis worker: a child process that runs one job (a mode of the registry) and posts
// progress and the result over IPC. A child process rather than a worker thread because the SAT
// solvers and z3's threads cannot be interrupted in-process (notes/sat-backends.md: ending z3's
// threads during a check hangs); killing the process ends every solver at once, cleanly.
import { parseInput, InputError, chcOf, Problem, resolveSettings } from '../../lib/index.js';
import { modeById } from './modes/index.js';
import type { Job, WorkerMessage } from './protocol.js';

function send(m: WorkerMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) return resolve();
    process.send(m, undefined, {}, () => resolve());
  });
}

async function runJob(job: Job): Promise<void> {
  const emit = (m: WorkerMessage) => void send(m);
  try {
    const mode = modeById(job.mode);
    if (!mode) throw new InputError('error', `unknown mode '${job.mode}'`, null);
    const program = parseInput(job.source, job.file, job.frontend ?? {});
    // The job's problem and settings, made once. Horn clauses: the predicates are the cut-points (the
    // loop-header cut-set).
    const { options } = job;
    const settings = resolveSettings({
      cutset: chcOf(program) ? 'headers' : options.cutset,
      schedule: options.schedule,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    await mode.run(Problem.of(program, options.function), settings, job, emit);
  } catch (e) {
    const message = e instanceof InputError ? e.message : `internal error: ${e instanceof Error ? e.message : String(e)}`;
    emit({ type: 'error', message });
  }
  await send({ type: 'done' });
  // Solver worker threads and z3's threads must not keep the process alive.
  process.exit(0);
}

process.once('message', (job: Job) => void runJob(job));
process.on('disconnect', () => process.exit(0));
