// Test support only: the farkas command line with every program it loads marked with a transformation
// fault (lib/ir/faults.ts), for the claim guard's end-to-end tests (cli/claim-guard.test.ts).
//   node dist/cli/testing/farkas-with-fault.js FAULT COMMAND ARGS…
import { TRANSFORMATION_FAULTS, withFaultForTests } from '../../lib/ir/faults.js';
import { setLoadedProgramHookForTests } from '../program-input.js';

const [fault, ...args] = process.argv.slice(2);
const known = TRANSFORMATION_FAULTS.find((f) => f === fault);
if (!known) throw new Error(`usage: farkas-with-fault ${TRANSFORMATION_FAULTS.join('|')} COMMAND ARGS…`);
setLoadedProgramHookForTests((program) => withFaultForTests(program, known));
process.argv = [process.argv[0]!, process.argv[1]!, ...args];
await import('../main.js');
