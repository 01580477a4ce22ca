// Starts analysis jobs off the render loop: each job runs in its own analysis-worker child process,
// whose messages arrive as events; cancelling a job kills the process (solvers included).
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Job, WorkerMessage } from './protocol.js';

export interface RunningJob {
  cancel(): void;
}

export interface AnalysisRunner {
  /** `onMessage` gets every message, ending with `done` (also after a crash), never after cancel(). */
  start(job: Job, onMessage: (m: WorkerMessage) => void): RunningJob;
  /** Kills every job still running (quit). */
  dispose(): void;
}

export function processRunner(): AnalysisRunner {
  const workerPath = fileURLToPath(new URL('./analysis-worker.js', import.meta.url));
  const children = new Set<ChildProcess>();
  return {
    start(job, onMessage) {
      let finished = false;
      let stderr = '';
      // stdout is dropped: logic-solver's MiniSat prints its aborts there (notes/sat-backends.md).
      // The argument names the UI process, so a leftover worker could be found (the end-to-end test looks).
      const child = fork(workerPath, [`--ui-parent=${process.pid}`], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
      children.add(child);
      child.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-2000);
      });
      const finish = () => {
        if (finished) return;
        finished = true;
        children.delete(child);
      };
      child.on('message', (m: WorkerMessage) => {
        if (finished) return;
        if (m.type === 'done') {
          onMessage(m);
          finish();
          return;
        }
        onMessage(m);
      });
      child.on('exit', (code, signal) => {
        if (finished) return;
        const last = stderr.trim().split('\n').slice(-1)[0];
        onMessage({ type: 'error', message: `analysis worker stopped (${signal ?? `exit ${code}`})${last ? `: ${last}` : ''}` });
        onMessage({ type: 'done' });
        finish();
      });
      child.send(job);
      return {
        cancel() {
          finish();
          child.kill('SIGKILL');
        },
      };
    },
    dispose() {
      for (const c of children) c.kill('SIGKILL');
      children.clear();
    },
  };
}
