// `farkas wp FILE` and `farkas sp FILE`: weakest preconditions and strongest postconditions (paper
// 004, Sections 4–5), each answer with its certificate and, per neighbour, the replayed witness that
// makes it locally weakest (strongest).
import { Option, type Command } from 'commander';
import { dataModelOption, loadProgram, propertyOption, type ProgramInputOptions } from '../program-input.js';
import { ANALYSES, FURTHER_ANSWER_MIN_QUERIES, STRENGTHEN_QUERIES, instrumentForCex, printProcedure, Problem, type ConditionEvent, type Program, type Settings, InputError, CONDITION_QUERY_CONFLICTS, CONDITION_QUERY_PROPAGATIONS, CONDITION_SEARCH_TIMEOUT_MS } from '../../lib/index.js';
import { cexJson, formatCex, formatNonterm, formatSp, formatWp, nontermJson, spJson, wpJson } from '../report/conditions.js';
import { EXIT } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { backendOption, commandSettings, cutsetOption, functionOption, templateOption, checkerOption, timeoutOption } from '../options.js';
import { describe } from './catalog.js';

export interface CommonCliOptions extends ProgramInputOptions {
  function?: string;
  cutset: 'paths' | 'headers';
  template: string;
  backend: string;
  timeout: string;
  queryTimeout?: string;
  queryConflicts?: string;
  queryPropagations?: string;
  json?: boolean;
  quiet?: boolean;
}

/** wp, sp and nonterm either find an answer or not: they never exit with "unsafe" (1). */
function answerExitCodes(what: string): string {
  return `Exit codes:
  0  ${what} found (certified)
  2  none found (with the reason)
  3  input error (syntax error, unsupported construct, bad option, unreadable file)
  4  internal error (a bug in farkas: please report it)`;
}

export function commonOptions(cmd: Command): Command {
  return cmd
    .addOption(functionOption())
    .addOption(cutsetOption())
    .addOption(templateOption())
    .addOption(backendOption())
    .addOption(timeoutOption(CONDITION_SEARCH_TIMEOUT_MS / 1000))
    .option('--query-conflicts <n>', `SAT conflicts one solver query may use (default ${CONDITION_QUERY_CONFLICTS}): work, not time, so the search takes the same path at any load`)
    .option('--query-propagations <n>', `SAT propagations one solver query may use with the embedded MiniSat (default ${CONDITION_QUERY_PROPAGATIONS})`)
    .option('--query-timeout <seconds>', 'also a time limit on one solver query (default: none but --timeout)')
    .option('--json', 'print one JSON object (integers as decimal strings)')
    .option('-q, --quiet', 'no progress on stderr');
}

function progress(quiet: boolean | undefined): ((e: ConditionEvent) => void) | undefined {
  if (quiet || !process.stderr.isTTY) return undefined;
  return (e) => {
    if (e.kind === 'sampled') process.stderr.write(`  sampled inputs: ${e.passing} pass, ${e.failing} fail\n`);
    else if (e.kind === 'query-start') process.stderr.write(`  query ${e.index + 1} (${e.purpose}): ${e.conjuncts} conjunct(s), invariants ${e.template} …\n`);
    else if (e.kind === 'query-done') process.stderr.write(`  query ${e.index + 1}: ${e.stats.conjuncts} conjunct(s), invariants ${e.stats.template}, ${e.stats.clauses} clauses: ${e.stats.result} in ${e.stats.satMillis} ms\n`);
    else if (e.kind === 'binary-step') process.stderr.write(`  binary search ${e.entry} in [${e.low}, ${e.high}]\n`);
    else if (e.kind === 'answer') process.stderr.write(`  found: ${e.expression}\n`);
  };
}

export function register(program: Command): void {
  registerNonterm(program);
  registerCex(program);
  commonOptions(
    program
      .command('wp')
      .description(describe('wp'))
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(checkerOption())
    .addOption(propertyOption()),
  )
    .addOption(new Option('-s, --strategy <name>', "'neighbourhood' (paper Fig. 6) or 'binary' (Fig. 5)").choices(['neighbourhood', 'binary']).default('neighbourhood'))
    .option('--max-answers <n>', 'most preconditions reported (each covers a passing input the others miss)', '3')
    .addHelpText('after', `
Each precondition is a conjunction over the function's parameters. "certified" means the independent
checker proved the function's assertions under it, with the listed invariants. Each neighbour (a
hyperplane shifted by one, or rotated onto another) gets an input inside it but outside the
precondition on which the program fails an assertion, replayed by the interpreter.

Several answers (--max-answers): each further one must cover a sampled safe input outside the earlier
ones, and its search gets as many solver queries as the first answer took (at least
${FURTHER_ANSWER_MIN_QUERIES}); when they run out with such inputs left, the output says so ("incomplete").

${answerExitCodes('a precondition')}`)
    .action((path: string, opts: CommonCliOptions & { strategy: 'neighbourhood' | 'binary'; maxAnswers: string }) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        const maxAnswers = Number(opts.maxAnswers);
        if (!Number.isInteger(maxAnswers) || maxAnswers < 1) throw new InputError('error', `--max-answers expects a positive integer, got '${opts.maxAnswers}'`, null);
        const { problem, settings, options } = conditionSearch(prog, opts);
        const result = await ANALYSES.wp.run(problem, settings, { ...options, strategy: opts.strategy, maxAnswers });
        process.stdout.write(opts.json ? JSON.stringify(wpJson(file, result), null, 2) + '\n' : formatWp(file, result));
        return ANALYSES.wp.exitCode(result);
      }),
    );

  commonOptions(
    program
      .command('sp')
      .description(describe('sp'))
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(checkerOption())
    .addOption(propertyOption()),
  )
    .option('--at <line>', 'line of a cut-point (a loop) instead of the exit')
    .addHelpText('after', `
Assertions are assumed (the postcondition describes the runs that pass them). "certified" means the
independent checker proved that the postcondition holds, with the listed invariants. Each neighbour
(a hyperplane shifted inwards by one, or rotated onto another) gets a reachable state that violates
it, found by running the program on concrete inputs and reproduced by re-running it.

The first candidate comes from the reached states: their affine hull and tightest bounds in unit
directions (±v, ±v±w, …), with invariants from the states the runs passed through, filtered by the
checker (Houdini). The template search then gets ${STRENGTHEN_QUERIES} solver queries to add conjuncts to it; without
such a candidate, the template search alone runs.

${answerExitCodes('a postcondition')}`)
    .action((path: string, opts: CommonCliOptions & { at?: string }) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        let atLine: number | undefined;
        if (opts.at !== undefined) {
          if (!/^\d+$/.test(opts.at.trim())) throw new InputError('error', `--at expects a line number, got '${opts.at}'`, null);
          atLine = Number(opts.at);
        }
        const { problem, settings, options } = conditionSearch(prog, opts);
        const result = await ANALYSES.sp.run(problem, settings, { ...options, ...(atLine !== undefined ? { atLine } : {}) });
        process.stdout.write(opts.json ? JSON.stringify(spJson(file, result), null, 2) + '\n' : formatSp(file, result));
        return ANALYSES.sp.exitCode(result);
      }),
    );
}

function registerNonterm(program: Command): void {
  commonOptions(
    program
      .command('nonterm')
      .description(describe('nonterm'))
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(checkerOption())
    .addOption(propertyOption()),
  )
    .addHelpText('after', `
Paper 004, Claim 3: assert(false) is added at the function's exit and weakest preconditions of that
program are computed (farkas wp). Each condition is certified (its invariants are a recurrent set: the
checker proves the exit unreachable from it), comes with an input inside it whose run the interpreter
shows for the first loop iterations, and each neighbour with an input on which the function returns.
With no condition found, farkas bounds runs: when every loop has a certified bound for all inputs the
verdict is "terminates" (the bounds are the ranking argument), otherwise unknown.

Exit codes (as for verify --property termination):
  0  terminates (certified bounds or ranking functions for every loop and recursion)
  1  a certified non-termination condition, with an input inside it whose run goes on
  2  neither (with the reason)
  3  input error (syntax error, unsupported construct, bad option, unreadable file)
  4  internal error (a bug in farkas: please report it)`)
    .action((path: string, opts: CommonCliOptions) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        const { problem, settings, options } = conditionSearch(prog, opts);
        const result = await ANALYSES.nonterm.run(problem, settings, options);
        process.stdout.write(opts.json ? JSON.stringify(nontermJson(file, result), null, 2) + '\n' : formatNonterm(file, result));
        return ANALYSES.nonterm.exitCode(result);
      }),
    );
}

function registerCex(program: Command): void {
  commonOptions(
    program
      .command('cex')
      .description(describe('cex'))
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(checkerOption())
    .addOption(propertyOption()),
  )
    .option('--show-instrumented', 'print the instrumented function (paper Claim 2: B1 error variable, B2 loop bounds) and stop')
    .option('--no-loop-bounds', 'leave out B2 (shows why it matters: non-terminating inputs come back)')
    .option('--no-error-variable', 'leave out B1 and negate each assertion instead (shows why B1 matters: every check must fail)')
    .option('--trace', 'print the replayed failing run step by step')
    .addHelpText('after', `
Paper 004, Claim 2: each assertion assert(p) becomes if (!p) { err = 1; goto end; } and end:
assert(err == 1) is added (B1); every loop gets a counter and assert(counter <= bound), the bound fitted
to the iteration counts of concrete runs that reach the end (B2), so a condition cannot consist of
inputs on which the function just never returns. Weakest preconditions of that program are computed
(farkas wp); a condition is reported only with an input inside it on which the original program fails
an assertion, replayed by the interpreter. Conditions without one are listed as dropped. As in wp,
each further condition's search gets as many solver queries as the first took (at least
${FURTHER_ANSWER_MIN_QUERIES}).

Exit codes: 1 when a replayed failing condition was found; 0 when no sampled input fails and every
assertion is proved (certified invariants: there is no counterexample); 2 when neither; 3 for bad input.`)
    .action((path: string, opts: CommonCliOptions & { showInstrumented?: boolean; trace?: boolean; loopBounds: boolean; errorVariable: boolean }) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        if (opts.showInstrumented) {
          const instrumented = instrumentForCex(prog, opts.function, { loopBounds: opts.loopBounds, errorVariable: opts.errorVariable });
          console.log(printProcedure(instrumented.procedures.get(opts.function ?? prog.entry)!));
          return EXIT.OK;
        }
        const { problem, settings, options } = conditionSearch(prog, opts);
        const result = await ANALYSES.cex.run(problem, settings, { ...options, loopBounds: opts.loopBounds, errorVariable: opts.errorVariable });
        process.stdout.write(opts.json ? JSON.stringify(cexJson(file, result), null, 2) + '\n' : formatCex(file, result, opts.trace ? prog : undefined));
        return ANALYSES.cex.exitCode(result);
      }),
    );
}

/** A condition command's problem, settings and progress, from its options (a bad --function or
 * limit is the user's input error). */
export function conditionSearch(program: Program, opts: CommonCliOptions): { problem: Problem; settings: Settings; options: { onProgress?: (e: ConditionEvent) => void } } {
  const onProgress = progress(opts.quiet);
  return { problem: Problem.of(program, opts.function), settings: commandSettings(opts), options: onProgress ? { onProgress } : {} };
}
