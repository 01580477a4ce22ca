// `farkas cfg FILE`: the control-flow graphs the front end builds, as text or Graphviz, for checking
// how a program was understood (which statements, which loop headers, which conditions).
import type { Command } from 'commander';
import { dataModelOption, loadProgram, propertyOption, type ProgramInputOptions, PROPERTIES } from '../program-input.js';
import { printProcedure, printProgram, programToDot, InputError } from '../../lib/index.js';
import { EXIT } from '../exit-codes.js';
import { runCommand } from '../common.js';
import { describe } from './catalog.js';

interface CfgCliOptions extends ProgramInputOptions {
  function?: string;
  dot?: boolean;
}

export function register(program: Command): void {
  program
    .command('cfg')
    .description(describe('cfg'))
    .argument('<file>', 'C program (.c or .i), or an SV-COMP task (.yml)')
    .addOption(dataModelOption())
    .addOption(propertyOption())
    .option('-f, --function <name>', 'print only this function')
    .option('--dot', 'print a Graphviz digraph (one cluster per function) instead of text')
    .addHelpText(
      'after',
      `
Text form: one block per function; each location line lists its role (entry, exit, loop header,
choice for a non-deterministic '*' branch) and source position, followed by its outgoing edges:
  L3 -> L4  [line 7]  x := x + 1
Render the Graphviz form with e.g.: farkas cfg prog.c --dot | dot -Tsvg > prog.svg`,
    )
    .action((path: string, opts: CfgCliOptions) =>
      runCommand(() => {
        const { file, program: parsed } = loadProgram(path, opts, PROPERTIES);
        if (opts.function !== undefined && !parsed.procedures.has(opts.function)) {
          const known = [...parsed.procedures.keys()].join(', ');
          throw new InputError('error', `no function '${opts.function}' in ${file} (functions: ${known})`, null);
        }
        if (opts.dot) process.stdout.write(programToDot(parsed, opts.function));
        else if (opts.function !== undefined) process.stdout.write(printProcedure(parsed.procedures.get(opts.function)!) + '\n');
        else process.stdout.write(printProgram(parsed));
        return EXIT.OK;
      }),
    );
}
