// How many portfolio workers run: a module of its own, because the command line reads it before it
// loads the library (cli/early-start.ts).
import { availableParallelism } from 'node:os';

/** One job on machines with two cores or fewer: measured there, the race was never faster than the
 * sequential search (1.5–1.9× the CPU) and lost proofs to the shared cores (issue 20). */
export const DEFAULT_JOBS = (): number => (availableParallelism() <= 2 ? 1 : availableParallelism());

/** More workers than cores only share the cores (and their memory grows with each): the command line
 * caps --jobs here (cli/portfolio-output.ts); a library caller chooses for itself. */
export const MAX_JOBS = (): number => Math.max(1, availableParallelism());
