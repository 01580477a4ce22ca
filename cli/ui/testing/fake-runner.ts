// A scripted analysis runner for component tests: records the jobs the UI starts and lets the test
// post worker messages to the running one.
import type { Job, WorkerMessage } from '../protocol.js';
import type { AnalysisRunner } from '../runner.js';

export interface FakeJob {
  readonly job: Job;
  cancelled: boolean;
  readonly post: (m: WorkerMessage) => void;
}

export class FakeRunner implements AnalysisRunner {
  readonly jobs: FakeJob[] = [];
  disposed = false;

  start(job: Job, onMessage: (m: WorkerMessage) => void) {
    const entry: FakeJob = {
      job,
      cancelled: false,
      post: (m) => {
        if (!entry.cancelled) onMessage(m);
      },
    };
    this.jobs.push(entry);
    return { cancel: () => void (entry.cancelled = true) };
  }

  get current(): FakeJob {
    return this.jobs[this.jobs.length - 1]!;
  }

  dispose(): void {
    this.disposed = true;
  }
}

const UNTIL_LIMIT_MS = 60_000;

/**
 * Polls until `check` holds (rendering and effects are asynchronous); fails with the last frame.
 * The limit only ends a test that can no longer pass: it is no time the UI must meet, and on a
 * machine busy with other work (load 8 on 2 cores) a few re-renders took more than the 5 s it was.
 */
export async function until(check: () => boolean, frame: () => string | undefined, limitMs = UNTIL_LIMIT_MS): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`condition not reached; last frame:\n${frame() ?? ''}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
