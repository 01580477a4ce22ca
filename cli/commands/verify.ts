// `farkas verify FILE`: prove every assertion with certified invariants, or say why not.
import { writeFileSync } from 'node:fs';
import { checkOutputFile } from '../output-paths.js';
import { Option, type Command } from 'commander';
import { type Program, EMIT_KINDS, exportProblem, type EmitKind, type PortfolioOptions, Problem, verifyPortfolio, type ProgressEvent, type Settings, type VerifyResult, toDimacs, witnessFor, InputError, SAT_STEP_CONFLICTS, SAT_STEP_PROPAGATIONS, CEX_AFTER_VERIFY_TIMEOUT_MS, refuteWithCex, ANALYSES, chcOf, chcAnswer, solveHornClauses, type ChcProgram, type ChcAnswer } from '../../lib/index.js';
import { dataModelOption, loadProgram, propertyOption, PROPERTIES } from '../program-input.js';
import { crossCheckCommand } from './cross-check.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { backendOption, commandSettings, cutsetOption, functionOption, templateOption, checkerOption, timeoutOption } from '../options.js';
import { jobsOption, parseJobs, portfolioProgressPrinter } from '../portfolio-output.js';
import { formatPortfolio, portfolioJson } from '../report/portfolio.js';
import { formatTermination, formatVerify, terminationJson, verifyJson } from '../report/verify.js';
import { collectPins, parsePins } from '../pin-option.js';
import { describe } from './catalog.js';
import { answeredBy } from '../report/answered-by.js';
import { chcJson, formatChc } from '../report/chc.js';

interface VerifyCliOptions {
  dataModel?: string;
  property?: string;
  cex?: boolean;
  function?: string;
  cutset: string;
  template: string;
  backend: string;
  timeout?: string;
  stepTimeout?: string;
  stepConflicts?: string;
  stepPropagations?: string;
  json?: boolean;
  emitDimacs?: string;
  progress: boolean;
  witness?: string;
  emit?: EmitKind;
  step?: string;
  crossCheck?: boolean;
  jobs?: string;
  pin: string[];
  observedBounds: boolean;
  quiet?: boolean;
}

export function register(program: Command): void {
  program
    .command('verify')
    .description(describe('verify'))
    .argument('<file>', 'C program (.c or .i), an SV-COMP task (.yml), or Horn clauses (.smt2: SMT-LIB HORN, the CHC-COMP format)')
    .addOption(dataModelOption())
    .addOption(checkerOption())
    .addOption(propertyOption())
    .addOption(functionOption())
    .addOption(cutsetOption())
    .addOption(templateOption())
    .addOption(backendOption())
    .addOption(timeoutOption())
    .addOption(jobsOption())
    .option('--pin <line:expr>', "pin an invariant: the C expression EXPR (over the variables in scope) is a known conjunct of the invariant at the cut-point(s) on LINE, certified with the rest (repeatable; runs the constraint search alone)", collectPins, [])
    .option('--no-observed-bounds', 'the template search alone: without first trying the bounds of the sampled runs, filtered by the checker to an inductive subset (Houdini)')
    .option('--cex', `when the proof search ends unknown, search for a most-general failing condition (farkas cex) in the time left (default ${CEX_AFTER_VERIFY_TIMEOUT_MS / 1000} s without --timeout)`)
    .option('--step-conflicts <n>', `SAT conflicts one schedule step may use (default ${SAT_STEP_CONFLICTS}); a step that runs out is skipped. Work, not time: the same steps fail on an idle or a busy machine`)
    .option('--step-propagations <n>', `SAT propagations one schedule step may use with the embedded MiniSat (default ${SAT_STEP_PROPAGATIONS}): bounds the work of steps with millions of clauses, where a conflict costs much more`)
    .option('--step-timeout <seconds>', 'also a time limit on one schedule step (default: none but --timeout)')
    .option('--emit-dimacs <file>', 'write the CNF of each attempted step to FILE (FILE.N.cnf for step N > 1)')
    .option('--witness <file>', 'write an SV-COMP witness (format 2.0, YAML): loop invariants when safe, the replayed run when unsafe')
    .addOption(new Option('--emit <kind>', "print the problem instead of solving it: 'chc' (Horn clauses, SMT-LIB HORN), 'smt' (one step's bilinear system, QF_NIA), 'dimacs' (its CNF)").choices([...EMIT_KINDS]))
    .option('--step <n>', 'schedule step exported by --emit smt|dimacs (default 1)')
    .option('--json', 'print one JSON object (the output contract: docs/commands.md)')
    .option('--cross-check', 'also run every interpolation engine (farkas check) and compare verdicts and loop invariants; exit 5 on disagreement')
    .option('--no-progress', 'do not print progress on stderr')
    .option('-q, --quiet', 'print the verdict line only (Horn clauses: sat, unsat or unknown) and no progress')
    .addHelpText('after', `
The verdict is 'safe' only when the independent certificate check (z3 over the integers: --checker)
has proved the invariants; otherwise 'unknown' with the reason.

Horn clauses (FILE.smt2, or any file that sets the logic HORN): the first line is 'sat', 'unsat' or
'unknown', as CHC-COMP tools print it. 'sat' comes with a model (define-fun per predicate) that z3 has
checked on every clause as written; 'unsat' with a derivation of false that evaluation confirms.
Nonlinear clauses (several predicates in a body): the predicates on no cycle of clauses are
resolved away first; when that leaves linear clauses, they are solved as linear ones, and the model
or derivation is still of the input's clauses, checked on them. The others are solved on the clauses
themselves: derivation trees unfolded for z3, Houdini, and the template search with every body
predicate a premise.

${EXIT_CODES_HELP}`)
    .action((path: string, opts: VerifyCliOptions, command: Command) =>
      runCommand(async () => {
        const { file, source, program } = loadProgram(path, opts, PROPERTIES, true);
        if (program.property === 'termination') return verifyTermination(file, program, commandSettings(opts), opts);
        const chc = chcOf(program);
        if (chc) checkChcOptions(opts, command);
        // The command's settings, resolved once (a bad --timeout, back end or schedule is an input
        // error); Horn clauses on the loop-header cut-set, which checkChcOptions chose.
        const settings = commandSettings(opts);
        if (chc?.nonlinear) return verifyNonlinear(file, chc, settings, opts);
        if (opts.emit !== undefined) {
          process.stdout.write(emitProblem(program, opts, command.getOptionValueSource('cutset') === 'default'));
          return EXIT.OK;
        }
        const knownInvariants = parsePins(program, opts.pin, opts.function, opts.cutset as 'headers' | 'paths');
        if (opts.witness !== undefined) checkOutputFile(opts.witness, '--witness');
        if (opts.emitDimacs !== undefined) checkOutputFile(opts.emitDimacs, '--emit-dimacs');
        // A write that fails anyway (the disk filled up) is reported after the verdict, which stands.
        const writeFailures: string[] = [];
        const write = (path: string, text: string): void => {
          try {
            writeFileSync(path, text);
          } catch (e) {
            writeFailures.push(`cannot write ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
          }
        };
        const showProgress = opts.progress && !opts.quiet && !opts.json && process.stderr.isTTY === true;
        const jobs = parseJobs(opts.jobs);
        const parallel = jobs > 1 && !opts.emitDimacs && !opts.crossCheck;
        const problem = Problem.of(program, opts.function);
        const search: PortfolioOptions = {
          ...(opts.emitDimacs ? { onCnf: (i: number, cnf: Parameters<typeof toDimacs>[0]) => write(i === 0 ? opts.emitDimacs! : `${opts.emitDimacs}.${i + 1}.cnf`, toDimacs(cnf)) } : {}),
          ...(showProgress && !parallel ? { onProgress: progressPrinter() } : {}),
          ...(knownInvariants.size > 0 ? { knownInvariants } : {}),
          ...(opts.observedBounds ? {} : { observedBounds: 'never' as const }),
        };
        if (opts.crossCheck) return crossCheckCommand(file, problem, settings, search, opts.json === true);
        // Horn clauses: first the unfolding and Houdini on the clauses themselves (cheap, and strong on
        // transition systems with many Boolean arguments), then the engines on the graph.
        // (Not with --emit-dimacs, which asks for the graph's template steps.)
        if (chc && !opts.emitDimacs) {
          const quick = await solveHornClauses(chc, settings, { quick: true });
          if (quick.answer.verdict !== 'unknown') return printChcAnswer(file, quick.answer, quick.result, opts);
        }
        const proved = await verifyPortfolio(problem, settings, { ...search, jobs, ...(showProgress && parallel ? portfolioProgressPrinter() : {}) });
        if (chc) {
          const answer = await chcAnswer(chc, proved, settings.deadline);
          process.stdout.write(opts.json ? JSON.stringify({ ...chcJson(file, answer, proved), ...portfolioJson(proved) }, null, 2) + '\n' : formatChc(answer, opts.quiet === true));
          return answer.verdict === 'sat' ? EXIT.OK : answer.verdict === 'unsat' ? EXIT.UNSAFE : EXIT.UNKNOWN;
        }
        const result = opts.cex ? await refuteWithCex(problem, proved, settings) : proved;
        const witness = opts.witness !== undefined ? await witnessFor({ program, file, source, result }) : null;
        const report = opts.json ? JSON.stringify({ ...verifyJson(file, result, program), ...portfolioJson(result) }, null, 2) + '\n' : formatVerify(file, result, program) + formatPortfolio(result);
        process.stdout.write(opts.quiet && !opts.json ? report.split('\n')[0] + '\n' : report);
        if (witness?.kind === 'none') process.stderr.write(`farkas: no witness written: ${witness.reason}\n`);
        else if (witness) write(opts.witness!, witness.text);
        for (const failure of writeFailures) process.stderr.write(`farkas: error: ${failure}\n`);
        if (writeFailures.length > 0) return EXIT.INPUT_ERROR;
        return result.verdict === 'safe' ? EXIT.OK : result.verdict === 'unsafe' ? EXIT.UNSAFE : EXIT.UNKNOWN;
      }),
    );
}

/** Horn clauses are solved by the template search and the falsifier on their predicates as
 * cut-points; what speaks of C source (witnesses, pins, the path cut-set) does not apply. */
function checkChcOptions(opts: VerifyCliOptions, command: Command): void {
  const given: Record<string, boolean> = {
    '--witness': opts.witness !== undefined,
    '--cex': opts.cex === true,
    '--pin': opts.pin.length > 0,
    '--function': opts.function !== undefined,
    '--cutset': command.getOptionValueSource('cutset') !== 'default' && opts.cutset !== 'headers',
  };
  const flags = Object.keys(given).filter((flag) => given[flag]);
  if (flags.length > 0) throw new InputError('error', `${flags.join(', ')}: not available for Horn clauses (their predicates are the cut-points)`, null);
  opts.cutset = 'headers';
}

/** Nonlinear Horn clauses are solved on the clauses themselves (lib/chc/clause-solver.ts): what prints
 * or races the control-flow problem does not apply. */
async function verifyNonlinear(file: string, chc: ChcProgram, settings: Settings, opts: VerifyCliOptions): Promise<number> {
  const given: Record<string, boolean> = {
    '--emit': opts.emit !== undefined,
    '--cross-check': opts.crossCheck === true,
    '--emit-dimacs': opts.emitDimacs !== undefined,
    '--step': opts.step !== undefined,
  };
  const flags = Object.keys(given).filter((flag) => given[flag]);
  if (flags.length > 0) throw new InputError('error', `${flags.join(', ')}: not available for nonlinear Horn clauses (several predicates in a body)`, null);
  const showProgress = opts.progress && !opts.quiet && !opts.json && process.stderr.isTTY === true;
  const { answer, result } = await solveHornClauses(chc, settings, showProgress ? { onProgress: progressPrinter() } : {});
  return printChcAnswer(file, answer, result, opts);
}

function printChcAnswer(file: string, answer: ChcAnswer, result: VerifyResult, opts: VerifyCliOptions): number {
  process.stdout.write(opts.json ? JSON.stringify(chcJson(file, answer, result), null, 2) + '\n' : formatChc(answer, opts.quiet === true));
  return answer.verdict === 'sat' ? EXIT.OK : answer.verdict === 'unsat' ? EXIT.UNSAFE : EXIT.UNKNOWN;
}

/** `--property termination`: every run ends (certified bounds), or one does not (a recurrent set and
 * a run of the program inside it), or unknown. Verdicts as for reachability: safe when the property
 * holds, unsafe when it is violated. */
async function verifyTermination(file: string, program: Program, settings: Settings, opts: VerifyCliOptions): Promise<number> {
  const given: Record<string, boolean> = {
    '--emit': opts.emit !== undefined,
    '--witness': opts.witness !== undefined,
    '--cex': opts.cex === true,
    '--cross-check': opts.crossCheck === true,
    '--emit-dimacs': opts.emitDimacs !== undefined,
    '--step': opts.step !== undefined,
    '--pin': opts.pin.length > 0,
    '--no-observed-bounds': !opts.observedBounds,
  };
  const flags = Object.keys(given).filter((flag) => given[flag]);
  if (flags.length > 0) throw new InputError('error', `${flags.join(', ')}: not available with --property termination`, null);
  const result = await ANALYSES.termination.run(Problem.of(program, opts.function), settings);
  process.stdout.write(opts.json ? JSON.stringify(terminationJson(file, result, program), null, 2) + '\n' : formatTermination(file, result, program));
  return ANALYSES.termination.exitCode(result);
}

function emitProblem(program: Program, opts: VerifyCliOptions, defaultCutset: boolean): string {
  const step = opts.step === undefined ? 1 : Number(opts.step);
  if (!Number.isInteger(step) || step < 1) throw new InputError('error', `--step expects a positive integer, got '${opts.step}'`, null);
  return exportProblem(program, opts.emit!, {
    ...(opts.function !== undefined ? { function: opts.function } : {}),
    // Horn clauses default to loop-header predicates, the other exports to the engine's cut-set.
    ...(defaultCutset ? {} : { cutset: opts.cutset as 'headers' | 'paths' }),
    schedule: opts.template,
    step,
  });
}

function progressPrinter(): (e: ProgressEvent) => void {
  return (e) => {
    if (e.kind === 'step-start') process.stderr.write(`  step ${e.index + 1}/${e.total}: template ${e.template}, widths ${e.widths.coefficient}/${e.widths.constant}/${e.widths.multiplier} … `);
    else if (e.kind === 'step-done') process.stderr.write(`${e.stats.result}${answeredBy(e.stats.backend)} (${e.stats.clauses} clauses, SAT ${e.stats.satMillis} ms)\n`);
    else if (e.kind === 'checking') process.stderr.write('  checking the certificate with z3 …\n');
  };
}
