// Stand-in for minisat-worker.js in the pool tests. workerData.heapBytes selects the misbehaviour
// (the pool passes its heap size through unchanged): 1 = throw while loading, 2 = exit when given
// a job, 3 = throw while handling a job, otherwise answer 'unsat' after 100 ms.
import { parentPort, workerData } from 'node:worker_threads';

const behaviour = (workerData as { heapBytes: number }).heapBytes;
if (behaviour === 1) throw new Error('cannot load');
parentPort!.on('message', () => {
  if (behaviour === 2) process.exit(3);
  if (behaviour === 3) throw new Error('job failed');
  setTimeout(() => parentPort!.postMessage({ kind: 'unsat' }), 100);
});
