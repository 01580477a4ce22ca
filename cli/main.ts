#!/usr/bin/env node
// The farkas command line: a thin layer over the library. Each command lives in cli/commands/
// and registers itself here.
import { Command } from 'commander';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import * as verifyCommand from './commands/verify.js';
import * as constraintsCommand from './commands/constraints.js';
import * as cfgCommand from './commands/cfg.js';
import * as runCommand from './commands/run.js';
import * as checkCommand from './commands/check.js';
import * as conditionsCommand from './commands/conditions.js';
import * as boundsCommand from './commands/bounds.js';
import * as uiCommand from './commands/ui.js';

const program = new Command();
program
  .name('farkas')
  .description('Program analysis as constraint solving for small integer C programs')
  .version('0.1.0')
  .addHelpText('after', '\n' + EXIT_CODES_HELP)
  .showHelpAfterError()
  .exitOverride((err) => {
    // Usage errors are input errors (exit 3); --help and --version exit 0.
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') process.exit(EXIT.OK);
    process.exit(EXIT.INPUT_ERROR);
  });

// Commands (each module exports `register(program)`):
const modules: Array<{ register(p: Command): void }> = [
  verifyCommand,
  constraintsCommand,
  cfgCommand,
  runCommand,
  checkCommand,
  conditionsCommand,
  boundsCommand,
  uiCommand,
];
for (const m of modules) m.register(program);

// `farkas FILE`: the UI on a terminal, plain `verify` output otherwise.
const args = process.argv.slice(2);
const commandNames = new Set(program.commands.flatMap((c) => [c.name(), ...c.aliases()]));
if (args.length > 0 && !args[0]!.startsWith('-') && !commandNames.has(args[0]!) && args[0] !== 'help') {
  args.unshift(uiCommand.isInteractive() ? 'ui' : 'verify');
}
await program.parseAsync(args, { from: 'user' });
