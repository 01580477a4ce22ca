// Starts the certificate checker's z3 before the command's module is loaded.
//
// Why: on a quick verify, z3's start in the checker's thread (~0.4 s: its JavaScript, its WASM, a
// context, the thread its checks run on) is the longest path to the answer, and it needs nothing
// from the command. Loading the command's module (the library, ~80 ms) and preparing the program
// would otherwise come first. For the commands that certify with z3 in this process: verify when
// its search runs here (with a portfolio, --jobs above 1, each worker starts its own, and one here
// would only take a core), and wp, sp, cex, nonterm and bounds, which always carry a --timeout.
import { CHECKER_CHOICES, chooseChecker, DEFAULT_JOBS, MAX_JOBS, warmUpChecker, type CheckerChoice } from '../lib/start.js';

/** `args`: the command line after the program name, the command first. Also applies --checker,
 * which the early start needs to know (the command's own parser checks its value). */
export function startCheckerEarly(args: readonly string[]): void {
  const checker = lastValue(optionsOf(args), '--checker');
  if ((CHECKER_CHOICES as readonly string[]).includes(checker ?? '')) chooseChecker(checker as CheckerChoice);
  if (earlyCheckerStart(args)) warmUpChecker();
}

function optionsOf(args: readonly string[]): readonly string[] {
  return args.slice(1, args.includes('--') ? args.indexOf('--') : undefined);
}

/** The last value of a long option, as commander reads it (`--name V` or `--name=V`). */
function lastValue(options: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  options.forEach((a, i) => {
    if (a === name) value = options[i + 1];
    else if (a.startsWith(`${name}=`)) value = a.slice(name.length + 1);
  });
  return value;
}

/** Whether the command line will check in this process. */
export function earlyCheckerStart(args: readonly string[]): boolean {
  const options = optionsOf(args);
  if (CONDITION_COMMANDS.has(args[0] ?? '')) return !options.includes('--show-instrumented');
  if (args[0] !== 'verify') return false;
  if (options.some((a) => a === '--emit' || a.startsWith('--emit='))) return false;
  const jobs = jobsGiven(options);
  const sequential = jobs === undefined ? DEFAULT_JOBS() === 1 : Math.min(jobs, MAX_JOBS()) === 1;
  // verify runs the search in this process also with --emit-dimacs or --cross-check.
  return sequential || options.some((a) => /^--(emit-dimacs|cross-check)(=|$)/.test(a));
}

/** The commands of cli/commands/conditions.ts and bounds.ts: each certifies its answers. */
const CONDITION_COMMANDS = new Set(['wp', 'sp', 'cex', 'nonterm', 'bounds']);

/** The last --jobs value (as commander reads it: `-j N`, `-jN`, `--jobs N`, `--jobs=N`); NaN if not a number. */
function jobsGiven(options: readonly string[]): number | undefined {
  let value: string | undefined;
  options.forEach((a, i) => {
    if (a === '-j' || a === '--jobs') value = options[i + 1];
    else if (a.startsWith('--jobs=')) value = a.slice('--jobs='.length);
    else if (/^-j\d/.test(a)) value = a.slice(2);
  });
  return value === undefined ? undefined : /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
}
