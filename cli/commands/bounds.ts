// `farkas bounds FILE`: loop bounds over the function's inputs (paper 004, Section 6.1), each proved
// by the constraint engine on the counter-instrumented program and certified by the z3 checker, with
// an input on which the loop runs exactly that often; conditional bounds (a precondition and a bound
// under it) when the loop does not terminate for every input.
import type { Command } from 'commander';
import { dataModelOption, loadProgram, propertyOption } from '../program-input.js';
import { ANALYSES, instrumentForBounds, type BoundsEvent, printProcedure } from '../../lib/index.js';
import { EXIT } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { commonOptions, conditionSearch, type CommonCliOptions } from './conditions.js';
import { boundsJson, formatBounds } from '../report/bounds.js';
import { describe } from './catalog.js';
import { checkerOption } from '../options.js';

export function register(program: Command): void {
  commonOptions(
    program
      .command('bounds')
      .description(describe('bounds'))
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(checkerOption())
    .addOption(propertyOption()),
  )
    .option('--show-instrumented', 'print the function with its iteration counters (paper Claim 1) and stop')
    .addHelpText('after', `
Paper 004, Claim 1: each loop gets a counter (0 when the loop is entered, +1 on every entry into its
body). A bound is a linear expression over the parameters: the tightest one consistent with the
iteration counts of many concrete runs is asserted at the increment and proved by the constraint
engine (invariants certified by z3, as in farkas verify); a refuting run refines the guess. "tight on"
names an input on which the loop runs exactly 'bound' times (re-run by the interpreter). When no bound
holds for every input, weakest preconditions of the instrumented program give conditional bounds.
Before a bound is printed, runs of the original program (counted without the instrumentation) must
not exceed it: one that does is a bug in farkas, reported as an internal error with that run's input.

Exit codes:
  0  every loop has a certified bound (possibly under a precondition), or there is none
  2  some loop has none (with the reason)
  3  input error (syntax error, unsupported construct, bad option, unreadable file)
  4  internal error (a bug in farkas: please report it)`)
    .action((path: string, opts: CommonCliOptions & { showInstrumented?: boolean }) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        if (opts.showInstrumented) {
          const counted = instrumentForBounds(prog, opts.function);
          console.log(printProcedure(counted.program.procedures.get(counted.function)!));
          return EXIT.OK;
        }
        const { problem, settings, options } = conditionSearch(prog, opts);
        const onBoundsProgress = boundsProgress(opts.quiet);
        const result = await ANALYSES.bounds.run(problem, settings, { ...options, ...(onBoundsProgress ? { onBoundsProgress } : {}) });
        process.stdout.write(opts.json ? JSON.stringify(boundsJson(file, result), null, 2) + '\n' : formatBounds(file, result));
        // A function without loops or recursion has nothing unbounded: every loop (none) is bounded.
        return ANALYSES.bounds.exitCode(result);
      }),
    );
}

function boundsProgress(quiet: boolean | undefined): ((e: BoundsEvent) => void) | undefined {
  if (quiet || !process.stderr.isTTY) return undefined;
  return (e) => {
    if (e.kind === 'sampled') process.stderr.write(`  ${e.runs} concrete runs (${e.nonTerminating} did not return)\n`);
    else if (e.kind === 'candidate') process.stderr.write(`  line ${e.line}: proving bound ${e.bound}\n`);
  };
}
