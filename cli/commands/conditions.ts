// `farkas wp FILE` and `farkas sp FILE`: weakest preconditions and strongest postconditions (paper
// 004, Sections 4–5), each answer with its certificate and, per neighbour, the replayed witness that
// makes it locally weakest (strongest).
import { Option, type Command } from 'commander';
import { dataModelOption, loadProgram, propertyOption, type ProgramInputOptions } from '../program-input.js';
import { FURTHER_ANSWER_MIN_QUERIES, wp } from '../../lib/conditions/wp.js';
import { sp } from '../../lib/conditions/sp.js';
import { nonterm, type NontermResult } from '../../lib/conditions/nonterm.js';
import { cex, instrumentForCex, type CexResult } from '../../lib/conditions/cex.js';
import { printProcedure } from '../../lib/ir/print.js';
import { formatRunResult, runResultToJson } from '../../lib/interp/index.js';
import type { ConditionAnswer, ConditionEvent, ConditionStats, IncompleteSearch, NeighbourEvidence, SpResult, WpResult } from '../../lib/conditions/types.js';
import { InputError } from '../../lib/diagnostics.js';
import { EXIT } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { cutsetOption, functionOption, parseCount, parseSeconds, templateOption } from '../options.js';
import { CONDITION_QUERY_CONFLICTS } from '../../lib/limits.js';

export interface CommonCliOptions extends ProgramInputOptions {
  function?: string;
  cutset: 'paths' | 'headers';
  template: string;
  backend: string;
  timeout: string;
  queryTimeout?: string;
  queryConflicts?: string;
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
    .option('-b, --backend <spec>', "SAT back end: 'minisat', 'z3' or 'dimacs:CMD'", 'minisat')
    .option('--timeout <seconds>', 'bound on the whole search', '300')
    .option('--query-conflicts <n>', `SAT conflicts one solver query may use (default ${CONDITION_QUERY_CONFLICTS}): work, not time, so the search takes the same path at any load`)
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

export const values = (m: ReadonlyMap<string, bigint> | undefined): Record<string, string> | undefined => (m ? Object.fromEntries([...m].map(([k, v]) => [k, v.toString()])) : undefined);

const INCOMPLETE_WP = { inputs: 'safe', answers: 'precondition' };
const INCOMPLETE_CEX = { inputs: 'failing', answers: 'condition' };

function incompleteText(i: IncompleteSearch, words: typeof INCOMPLETE_WP): string {
  return `${i.uncoveredInputs} sampled ${words.inputs} input(s) lie outside every ${words.answers}; no further one was found within ${i.budgetQueries} solver queries (each further ${words.answers} gets as many as the first took, at least ${FURTHER_ANSWER_MIN_QUERIES})`;
}

function incompleteJson(i: IncompleteSearch, words: typeof INCOMPLETE_WP): Record<string, unknown> {
  return { uncoveredInputs: i.uncoveredInputs, budgetQueries: i.budgetQueries, note: incompleteText(i, words) };
}

function neighbourJson(n: NeighbourEvidence): Record<string, unknown> {
  return {
    expression: n.expression,
    move: n.move,
    ...(n.input ? { input: values(n.input) } : {}),
    ...(n.state ? { state: values(n.state) } : {}),
    ...(n.nondet ? { nondet: n.nondet.map(String) } : {}),
    ...(n.line !== undefined ? { line: n.line } : {}),
    replayed: n.replayed,
    ...(n.note ? { note: n.note } : {}),
  };
}

function answerJson(a: ConditionAnswer): Record<string, unknown> {
  return { expression: a.expression, certified: a.certified, locallyOptimal: a.locallyOptimal, invariants: a.invariants, neighbours: a.neighbours.map(neighbourJson) };
}

function statsJson(s: ConditionStats): Record<string, unknown> {
  const clauses = s.queries.reduce((a, q) => Math.max(a, q.clauses), 0);
  return { solverCalls: s.queries.length, iterations: s.iterations, concreteRuns: s.concreteRuns, maxClauses: clauses, millis: s.millis, queries: s.queries };
}

function printAnswer(a: ConditionAnswer, what: 'precondition' | 'postcondition', index?: number, witness: (n: NeighbourEvidence) => string = (n) => `fails at line ${n.line} on ${fmt(n.input)}`): void {
  const label = index !== undefined ? `${what} ${index + 1}` : what;
  console.log(`${label}: ${a.expression}`);
  console.log(`  certified: ${a.certified ? 'yes (z3, integer arithmetic)' : 'no'}${a.invariants.length > 0 ? ', with invariants:' : ''}`);
  for (const inv of a.invariants) console.log(`    line ${inv.line}: ${inv.expression}`);
  const refuted = a.neighbours.filter((n) => n.replayed).length;
  const counted = a.neighbours.filter((n) => !n.note?.startsWith('equivalent')).length;
  console.log(`  neighbours: ${refuted}/${counted} refuted by replayed runs${a.locallyOptimal ? ` (locally ${what === 'precondition' ? 'weakest' : 'strongest'})` : ''}`);
  for (const n of a.neighbours) {
    let why: string;
    if (n.replayed && n.input && what === 'precondition') why = `${witness(n)}${n.nondet && n.nondet.length > 0 ? ` (nondet ${n.nondet.join(',')})` : ''}`;
    else if (n.replayed && n.state) why = `violated by reachable ${fmt(n.state)} (inputs ${fmt(n.input)}${n.nondet && n.nondet.length > 0 ? `, nondet ${n.nondet.slice(0, 12).join(',')}${n.nondet.length > 12 ? ',…' : ''}` : ''})`;
    else why = n.note ?? 'not refuted';
    console.log(`    ${n.expression}: ${why}`);
  }
}

export function fmt(m: ReadonlyMap<string, bigint> | undefined): string {
  return m ? [...m].map(([k, v]) => `${k}=${v}`).join(' ') : '';
}

function printStats(s: ConditionStats): void {
  const clauses = s.queries.reduce((a, q) => Math.max(a, q.clauses), 0);
  console.log(`search: ${s.queries.length} solver calls, ${s.iterations} iterations, ${s.concreteRuns} concrete runs, largest query ${clauses} clauses, ${(s.millis / 1000).toFixed(1)} s`);
}

export function register(program: Command): void {
  registerNonterm(program);
  registerCex(program);
  commonOptions(
    program
      .command('wp')
      .description('weakest preconditions over the parameters of a function, each certified and locally weakest with replayed evidence')
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
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
ones, and its search gets as long as the first answer took (at least ${FURTHER_ANSWER_MIN_QUERIES / 1000} s); when that runs out
with such inputs left, the output says so ("incomplete").

${answerExitCodes('a precondition')}`)
    .action((path: string, opts: CommonCliOptions & { strategy: 'neighbourhood' | 'binary'; maxAnswers: string }) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        const maxAnswers = Number(opts.maxAnswers);
        if (!Number.isInteger(maxAnswers) || maxAnswers < 1) throw new InputError('error', `--max-answers expects a positive integer, got '${opts.maxAnswers}'`, null);
        const result = await wp(prog, {
          strategy: opts.strategy,
          maxAnswers,
          ...shared(opts),
        });
        if (opts.json) console.log(JSON.stringify(wpJson(file, result), null, 2));
        else {
          console.log(`${file}: function ${result.function}(${result.parameters.join(', ')}): ${result.preconditions.length} precondition(s) [${result.strategy}]`);
          result.preconditions.forEach((a, i) => printAnswer(a, 'precondition', i));
          if (result.reason) console.log(`reason: ${result.reason}`);
          if (result.incomplete) console.log(`incomplete: ${incompleteText(result.incomplete, INCOMPLETE_WP)}`);
          printStats(result.stats);
        }
        return result.preconditions.length > 0 ? EXIT.OK : EXIT.UNKNOWN;
      }),
    );

  commonOptions(
    program
      .command('sp')
      .description('strongest postcondition at the exit (or a loop), certified and locally strongest with replayed evidence')
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
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
checker (Houdini). The template search then tries for 10 s to add conjuncts to it; without such a
candidate, the template search alone runs.

${answerExitCodes('a postcondition')}`)
    .action((path: string, opts: CommonCliOptions & { at?: string }) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        let atLine: number | undefined;
        if (opts.at !== undefined) {
          if (!/^\d+$/.test(opts.at.trim())) throw new InputError('error', `--at expects a line number, got '${opts.at}'`, null);
          atLine = Number(opts.at);
        }
        const result = await sp(prog, { ...(atLine !== undefined ? { atLine } : {}), ...shared(opts) });
        if (opts.json) console.log(JSON.stringify(spJson(file, result), null, 2));
        else {
          console.log(`${file}: function ${result.function}, ${result.at === 'exit' ? 'at the exit' : `at line ${result.line}`}, over ${result.variables.join(', ')}`);
          if (result.postcondition) printAnswer(result.postcondition, 'postcondition');
          else console.log(`no postcondition: ${result.reason}`);
          printStats(result.stats);
        }
        return result.postcondition ? EXIT.OK : EXIT.UNKNOWN;
      }),
    );
}

function registerNonterm(program: Command): void {
  commonOptions(
    program
      .command('nonterm')
      .description('most-general counterexamples for termination: conditions on the parameters under which the function never returns')
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(propertyOption()),
  )
    .addHelpText('after', `
Paper 004, Claim 3: assert(false) is added at the function's exit and weakest preconditions of that
program are computed (farkas wp). Each condition is certified (its invariants are a recurrent set: the
checker proves the exit unreachable from it), comes with an input inside it whose run the interpreter
shows for the first loop iterations, and each neighbour with an input on which the function returns.
With no condition found, farkas bounds runs: when every loop has a certified bound for all inputs the
verdict is "terminates" (the bounds are the ranking argument), otherwise unknown.

${answerExitCodes('a non-termination condition')}`)
    .action((path: string, opts: CommonCliOptions) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        const result = await nonterm(prog, shared(opts));
        if (opts.json) console.log(JSON.stringify(nontermJson(file, result), null, 2));
        else {
          console.log(`${file}: function ${result.function}: ${result.verdict}`);
          result.conditions.forEach((c, i) => {
            printAnswer(c, 'precondition', i, (n) => `returns on ${fmt(n.input)}`);
            if (c.input) console.log(`  runs forever from ${fmt(c.input)}; first loop-head states: ${c.iterationsShown.map((s) => `[${fmt(s.values)}]`).join(' ')}`);
          });
          for (const l of result.bounds ?? []) console.log(`  loop at line ${l.line}: at most ${l.bound} iterations (certified)`);
          if (result.reason) console.log(`reason: ${result.reason}`);
          printStats(result.stats);
        }
        return result.verdict === 'unknown' ? EXIT.UNKNOWN : EXIT.OK;
      }),
    );
}

export function nontermJson(file: string, r: NontermResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    verdict: r.verdict,
    conditions: r.conditions.map((c) => ({
      ...answerJson(c),
      ...(c.input ? { input: values(c.input) } : {}),
      iterations_shown: c.iterationsShown.map((s) => ({ line: s.line, values: values(s.values) })),
    })),
    ...(r.bounds ? { bounds: r.bounds.map((l) => ({ function: l.function, line: l.line, bound: l.bound, certified: l.certified })) } : {}),
    ...(r.reason ? { reason: r.reason } : {}),
    stats: statsJson(r.stats),
  };
}

function registerCex(program: Command): void {
  commonOptions(
    program
      .command('cex')
      .description('most-general counterexamples for safety: conditions on the parameters under which an assertion fails')
      .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
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
each further condition's search gets as long as the first took (at least ${FURTHER_ANSWER_MIN_QUERIES / 1000} s).

Exit codes: 1 when a replayed failing condition was found, 2 when none, 3 for bad input.`)
    .action((path: string, opts: CommonCliOptions & { showInstrumented?: boolean; trace?: boolean; loopBounds: boolean; errorVariable: boolean }) =>
      runCommand(async () => {
        const { file, program: prog } = loadProgram(path, opts);
        if (opts.showInstrumented) {
          const instrumented = instrumentForCex(prog, opts.function, { loopBounds: opts.loopBounds, errorVariable: opts.errorVariable });
          console.log(printProcedure(instrumented.procedures.get(opts.function ?? prog.entry)!));
          return EXIT.OK;
        }
        const result = await cex(prog, { ...shared(opts), loopBounds: opts.loopBounds, errorVariable: opts.errorVariable });
        if (opts.json) console.log(JSON.stringify(cexJson(file, result), null, 2));
        else {
          console.log(`${file}: function ${result.function}: ${result.conditions.length} failing condition(s)`);
          result.conditions.forEach((c, i) => {
            console.log(`condition ${i + 1}: ${c.expression}`);
            console.log(`  certified: ${c.certified ? 'yes (the instrumented program cannot return with err == 0 under it)' : 'no'}`);
            console.log(`  replayed: ${fmt(c.input)}${c.nondet.length > 0 ? ` (nondet ${c.nondet.join(',')})` : ''} fails the assertion at line ${c.line}`);
            if (opts.trace) console.log(formatRunResult(c.run, prog, { trace: "full" }).replace(/^/gm, '    '));
          });
          for (const d of result.dropped) console.log(`dropped: ${d.expression} (${d.reason})`);
          if (result.reason) console.log(`reason: ${result.reason}`);
          if (result.incomplete) console.log(`incomplete: ${incompleteText(result.incomplete, INCOMPLETE_CEX)}`);
          printStats(result.stats);
        }
        return result.conditions.length > 0 ? EXIT.UNSAFE : EXIT.UNKNOWN;
      }),
    );
}

export function cexJson(file: string, r: CexResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    conditions: r.conditions.map((c) => ({
      expression: c.expression,
      certified: c.certified,
      input: values(c.input),
      nondet: c.nondet.map(String),
      line: c.line,
      replayed: c.replayed,
      trace: runResultToJson(c.run),
    })),
    dropped: r.dropped,
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.incomplete ? { incomplete: incompleteJson(r.incomplete, INCOMPLETE_CEX) } : {}),
    stats: statsJson(r.stats),
  };
}

export function shared(opts: CommonCliOptions) {
  return {
    ...(opts.function ? { function: opts.function } : {}),
    cutset: opts.cutset,
    schedule: opts.template,
    backend: opts.backend,
    timeoutMs: parseSeconds(opts.timeout, '--timeout') * 1000,
    ...(opts.queryTimeout !== undefined ? { queryTimeoutMs: parseSeconds(opts.queryTimeout, '--query-timeout') * 1000 } : {}),
    ...(opts.queryConflicts !== undefined ? { queryConflicts: parseCount(opts.queryConflicts, '--query-conflicts') } : {}),
    ...(progress(opts.quiet) ? { onProgress: progress(opts.quiet)! } : {}),
  };
}

export function wpJson(file: string, r: WpResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    strategy: r.strategy,
    parameters: r.parameters,
    preconditions: r.preconditions.map(answerJson),
    ...(r.reason ? { reason: r.reason } : {}),
    ...(r.incomplete ? { incomplete: incompleteJson(r.incomplete, INCOMPLETE_WP) } : {}),
    stats: statsJson(r.stats),
  };
}

export function spJson(file: string, r: SpResult): Record<string, unknown> {
  return {
    file,
    function: r.function,
    at: r.at,
    line: r.line,
    variables: r.variables,
    postcondition: r.postcondition ? answerJson(r.postcondition) : null,
    ...(r.reason ? { reason: r.reason } : {}),
    stats: statsJson(r.stats),
  };
}
