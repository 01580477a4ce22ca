// The package's light door ('farkas/start'): what a program may call before it loads the library
// (lib/index.ts, whose loading takes ~80 ms), so that slow start-ups overlap with it. The command
// line starts the checker's z3 from here before it loads a command (cli/early-start.ts).
export { warmUpChecker, checkerWarm, chooseChecker, checkerInUse, CHECKER_CHOICES, type CheckerChoice } from './certify/lia-solver.js';
export { DEFAULT_JOBS, MAX_JOBS } from './portfolio/jobs.js';
