// Loaded by ava (package.json "require") into every test process. Once a file's tests are done,
// ava waits for its process to end by itself; a test that leaves a timer, an ink app or a worker
// running keeps it alive for ever, and `npm test` never ends (a CI run once hung for 90 minutes on a
// UI test that failed before it unmounted its app). Instead, such a process fails here, naming what
// it left running, so the leak is a failed run with a reason and not a hang.
import { registerCompletionHandler } from 'ava';

/** How long a test process may take to end by itself once its tests are done. Generous: z3's
 * threads and the SAT workers wind down asynchronously on a loaded machine. */
const GRACE_MS = 30_000;

registerCompletionHandler(() => {
  // Unref'd: this timer never keeps the process alive, so it fires only when something else does.
  setTimeout(() => {
    const left = process.getActiveResourcesInfo().filter((kind) => kind !== 'TTYWrap');
    process.stderr.write(`test process still running ${GRACE_MS / 1000} s after its tests ended; left open: ${left.join(', ') || 'unknown'}\n`);
    process.exit(1);
  }, GRACE_MS).unref();
});
