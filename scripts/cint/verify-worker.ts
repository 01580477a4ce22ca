// The worker thread of verify-farkas.ts: verifies the tasks it is sent, one at a time, and answers
// each with a FarkasAnswer. It lives until it is terminated (z3 stays initialised between tasks).
import { parentPort } from 'node:worker_threads';
import { verifyJob, type VerifyJob } from './verify-farkas.js';

const port = parentPort;
if (!port) throw new Error('verify-worker: not in a worker thread');
let queue: Promise<void> = Promise.resolve();
port.on('message', (job: VerifyJob) => {
  queue = queue.then(async () => port.postMessage(await verifyJob(job)));
});
