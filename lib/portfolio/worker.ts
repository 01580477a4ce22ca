// One portfolio configuration in a worker thread: a lane of the constraint search or one engine.
// The worker is the unit of cancellation: z3 and MiniSat cannot be interrupted in-process, so the
// portfolio terminates the whole thread when another configuration has won.
import { parentPort, workerData } from 'node:worker_threads';
import { engineByName } from '../engines/index.js';
import { Problem } from '../problem/prepare.js';
import { settingsOfJob } from '../settings.js';
import { shutdownZ3 } from '../sat/z3-context.js';
import { ClaimContradicted } from '../guard/claim.js';
import { inLane } from './configurations.js';
import { runScheduleLane } from './schedule-lane.js';
import type { ConfigurationResult, PortfolioJob, WorkerMessage } from './protocol.js';

const job = workerData as PortfolioJob;
const post = (message: WorkerMessage): void => parentPort!.postMessage(message);

async function run(): Promise<{ result: ConfigurationResult; attemptIndices: number[] }> {
  const c = job.configuration;
  // The worker's settings and problem, made once: the command's, with the command's deadline.
  const settings = settingsOfJob(job.settings);
  const problem = Problem.of(job.program, job.function);
  if (c.kind === 'engine') {
    const engine = engineByName(c.engine);
    if (!engine) throw new Error(`engine '${c.engine}' is not available`);
    return { result: await engine.run(problem, settings), attemptIndices: [] };
  }
  // The lane's stats come back without their places in the full attempt sequence; the progress
  // events carry them, so that the portfolio can merge the lanes' stats in the sequential order.
  const attemptIndices: number[] = [];
  const result = await runScheduleLane(problem, settings, {
    ...(job.observedBounds !== undefined ? { observedBounds: job.observedBounds } : {}),
    ...(c.lanes > 1 ? { selectAttempt: (a) => inLane(c, a) } : {}),
    onProgress: (event) => {
      if (event.kind === 'step-done') attemptIndices.push(event.index);
      post({ kind: 'progress', event });
    },
  });
  return { result, attemptIndices };
}

try {
  const { result, attemptIndices } = await run();
  post({ kind: 'result', result, attemptIndices });
} catch (e) {
  post({ kind: 'failed', message: e instanceof Error ? e.message : String(e), ...(e instanceof ClaimContradicted ? { contradicted: true } : {}) });
} finally {
  // Lets the thread end by itself when it is not terminated first.
  await shutdownZ3();
}
