// `farkas check FILE --engine E`: one engine of the registry on its own (the constraint engine with
// `verify`'s defaults, or an interpolation engine of papers 000–003). Same verdicts, certification
// rules, exit codes and --json contract as `verify`, plus the engine's search statistics.
import { Option, type Command } from 'commander';
import { dataModelOption, loadProgram, propertyOption, type ProgramInputOptions } from '../program-input.js';
import { availableEngines, engineByName, registeredEngines, type EngineResult, shutdownZ3, InputError, Problem } from '../../lib/index.js';
import { EXIT, EXIT_CODES_HELP } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { commandSettings, functionOption, checkerOption, timeoutOption } from '../options.js';
import { checkJson, formatCheck } from '../report/check.js';
import { describe } from './catalog.js';

interface CheckCliOptions extends ProgramInputOptions {
  engine: string;
  function?: string;
  timeout?: string;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('check')
    .description(describe('check'))
    .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(checkerOption())
    .addOption(propertyOption())
    .addOption(new Option('-e, --engine <name>', 'the engine').choices(availableEngines()).makeOptionMandatory())
    .addOption(functionOption())
    .addOption(timeoutOption())
    .option('--json', 'print one JSON object (the verify output contract plus "engineStats")')
    .addHelpText('after', `
Engines:
${registeredEngines().map((e) => `  ${e.name}: ${e.description}`).join('\n')}
'constraints' runs with verify's defaults (cut-set, schedule, SAT back end); farkas verify has their options.
The verdict is 'safe' only when the independent certificate check (z3 over the integers: --checker)
has proved the engine's invariants, 'unsafe' only when the interpreter replayed the
counterexample; otherwise 'unknown' with the reason.

${EXIT_CODES_HELP}`)
    .action((path: string, opts: CheckCliOptions) =>
      runCommand(async () => {
        const { file, program } = loadProgram(path, opts);
        const engine = engineByName(opts.engine);
        if (!engine) throw new InputError('error', `unknown engine '${opts.engine}'`, null);
        const settings = commandSettings({ ...(opts.timeout !== undefined ? { timeout: opts.timeout } : {}) });
        let result: EngineResult;
        try {
          result = await engine.run(Problem.of(program, opts.function), settings);
        } finally {
          await shutdownZ3();
        }
        process.stdout.write(opts.json ? JSON.stringify(checkJson(file, result, program), null, 2) + '\n' : formatCheck(file, result, program));
        return result.verdict === 'safe' ? EXIT.OK : result.verdict === 'unsafe' ? EXIT.UNSAFE : EXIT.UNKNOWN;
      }),
    );
}
