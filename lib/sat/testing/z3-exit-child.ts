// Child process for the "z3 lets the process exit" test: solves once, leaves a hard solve running,
// then calls shutdownZ3() and lets the event loop drain; the process must end by itself.
import { Z3Backend } from '../z3-backend.js';
import { shutdownZ3 } from '../z3-context.js';
import { pigeonhole } from './instances.js';

const z3 = new Z3Backend();
const easy = await z3.solve(pigeonhole(4, 4));
const hard = z3.solve(pigeonhole(12, 11));
await new Promise((resolve) => setTimeout(resolve, 200));
await shutdownZ3();
const interrupted = await hard;
process.stdout.write(`RESULT ${easy.status} ${interrupted.status} (${interrupted.reason})\n`);
