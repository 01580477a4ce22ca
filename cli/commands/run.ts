// `farkas run FILE`: execute a program with the concrete interpreter on given inputs and nondet values
// (also how a counterexample is replayed by hand).
import type { Command } from 'commander';
import { InputError, formatRunResult, runProgram, runResultToJson, DEFAULT_MAX_STEPS, TRACE_RUN_STEPS, type RunOptions, type RunResult } from '../../lib/index.js';
import { dataModelOption, loadProgram, propertyOption, type ProgramInputOptions, PROPERTIES } from '../program-input.js';
import { EXIT } from '../exit-codes.js';
import { parseAssignments, parseIntegerList, runCommand } from '../common.js';
import { describe } from './catalog.js';

interface RunCliOptions extends ProgramInputOptions {
  function?: string;
  input: string[];
  nondet?: string;
  nondetDefault: string;
  maxSteps: string;
  trace?: boolean;
  json?: boolean;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseNondetDefault(text: string): bigint | null {
  if (text.trim() === 'none') return null;
  if (!/^\s*-?\d+\s*$/.test(text)) throw new InputError('error', `--nondet-default expects an integer or 'none', got '${text}'`, null);
  return BigInt(text.trim());
}

function parseMaxSteps(text: string): number {
  if (!/^\s*\d+\s*$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new InputError('error', `--max-steps expects a positive integer, got '${text}'`, null);
  }
  return Number(text);
}

export function exitCodeFor(result: RunResult): number {
  switch (result.outcome.kind) {
    case 'exit': return EXIT.OK;
    case 'assertion-failed': return EXIT.UNSAFE;
    default: return EXIT.UNKNOWN;
  }
}

export function register(program: Command): void {
  program
    .command('run')
    .description(describe('run'))
    .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(propertyOption())
    .option('-f, --function <name>', 'function to run (default: main, else the last function)')
    .option('-i, --input <name=value>', "value of a parameter of the function (repeatable, or comma-separated: 'n=3,m=-1')", collect, [])
    .option('-n, --nondet <v1,v2,...>', 'values for nondet choices, in the order the run needs them')
    .option('--nondet-default <value|none>', "value used once the --nondet list is exhausted; 'none' stops the run there", '0')
    .option('--max-steps <n>', 'give up after this many CFG edges (also bounds the call depth)', String(DEFAULT_MAX_STEPS))
    .option('--trace', 'print every step with the values it set')
    .option('--json', 'print one JSON object (integers as decimal strings)')
    .addHelpText(
      'after',
      `
Values come from a single stream, consumed in order by: the function's parameters not given with
--input (in parameter order), every __VERIFIER_nondet_*() call and uninitialised local, and every
non-deterministic branch ('if (*)', 'while (*)': non-zero takes the then-branch / loop body). A value
outside the range of a __VERIFIER_nondet_<type>() result ends the run: such a run cannot happen in C.
Arithmetic is C's (the data model's type sizes, wrap-around of unsigned values and conversions);
a signed overflow, undefined behaviour in C, ends the run at its line.

Examples:
  farkas run prog.c --input n=10
  farkas run prog.c --nondet 1,1,0 --nondet-default none --trace

Exit codes for run:
  0  the function returned
  1  an assertion failed (prints FILE:LINE: assertion failed, and the visited source lines when the
     run took at most ${TRACE_RUN_STEPS.toLocaleString('en-US')} steps)
  2  a run blocked by an assume, a signed overflow, the step limit, or a nondet value out of its type's range
  3  input error (unknown function or parameter, bad number, syntax error)
  4  internal error (a bug in farkas: please report it)`,
    )
    .action((path: string, opts: RunCliOptions) =>
      runCommand(() => {
        const { file, program } = loadProgram(path, opts, PROPERTIES);
        const options: RunOptions = {
          ...(opts.function !== undefined ? { entry: opts.function } : {}),
          inputs: parseAssignments(opts.input.flatMap((i) => i.split(','))),
          nondet: opts.nondet !== undefined ? parseIntegerList(opts.nondet) : [],
          nondetDefault: parseNondetDefault(opts.nondetDefault),
          maxSteps: parseMaxSteps(opts.maxSteps),
          maxCallDepth: parseMaxSteps(opts.maxSteps),
        };
        // Without a trace, loops that repeat are run in closed form (the same run, faster).
        let result = runProgram(program, opts.trace === true ? { ...options, recordTrace: true } : { ...options, accelerate: true });
        if (!opts.trace && !opts.json && result.outcome.kind === 'assertion-failed' && result.steps <= TRACE_RUN_STEPS) {
          // The run is deterministic given its options: replay it recording the trace, to show the path.
          result = runProgram(program, { ...options, recordTrace: true });
        }
        if (opts.json) {
          const { entry, ...rest } = runResultToJson(result);
          const json = { file, function: entry, ...rest };
          process.stdout.write(JSON.stringify(json, null, 2) + '\n');
        } else {
          process.stdout.write(formatRunResult(result, program, { trace: opts.trace ? 'full' : 'lines' }) + '\n');
        }
        return exitCodeFor(result);
      }),
    );
}
