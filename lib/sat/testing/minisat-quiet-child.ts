// Child process for the "MiniSat never prints to stdout" test: triggers MiniSat's heap abort (which
// prints through console.log inside minisat.js) and a normal solve, then writes exactly one line.
import { MinisatBackend } from '../minisat-backend.js';
import { pigeonhole, seededRandom3Cnf } from './instances.js';

const tinyHeap = new MinisatBackend({ heapBytes: 16 * 1024 * 1024 });
const outOfMemory = await tinyHeap.solve(seededRandom3Cnf(100_000, 400_000, 1));
const normal = await new MinisatBackend().solve(pigeonhole(5, 5));
process.stdout.write(`RESULT ${outOfMemory.status} ${outOfMemory.reason} / ${normal.status}\n`);
