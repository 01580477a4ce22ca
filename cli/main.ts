#!/usr/bin/env node
// The farkas command line: a thin layer over the library. Each command lives in cli/commands/ and
// registers itself there; only the module of the command run is imported (each one loads the
// library), and the command list of `farkas --help` comes from the catalog alone.
import { setFlagsFromString } from 'node:v8';
import { Command, Help } from 'commander';
import { EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { COMMANDS, type CommandEntry } from './commands/catalog.js';
import { isInteractive } from './terminal.js';
import { startCheckerEarly } from './early-start.js';
import { checkerInUse } from '../lib/start.js';

// z3's WASM (35 MB) is validated function by function as its functions are first compiled, not all
// at once when it loads: a check uses a small part of z3, and loading it is on the way to the first
// check (about 40 ms less). Set before any thread loads z3; V8's flags hold for the whole process.
setFlagsFromString('--wasm-lazy-validation');

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

// `--checker native` needs a z3 on PATH (auto falls back to the WASM build without one).
program.hook('preAction', (_program, action) => {
  const { checker } = action.opts() as { checker?: string };
  const use = checkerInUse();
  if (checker === 'native' && use.kind === 'native' && use.executable === null) {
    process.stderr.write("error: --checker native: no z3 on PATH (install z3, or use --checker wasm)\n");
    process.exit(EXIT.INPUT_ERROR);
  }
});

const modules: Record<CommandEntry['module'], () => Promise<{ register(p: Command): void }>> = {
  verify: () => import('./commands/verify.js'),
  constraints: () => import('./commands/constraints.js'),
  cfg: () => import('./commands/cfg.js'),
  run: () => import('./commands/run.js'),
  check: () => import('./commands/check.js'),
  conditions: () => import('./commands/conditions.js'),
  bounds: () => import('./commands/bounds.js'),
  ui: () => import('./commands/ui.js'),
};

const args = process.argv.slice(2);
const named = (name: string | undefined) => COMMANDS.find((c) => c.name === name);
// `farkas help CMD` is `farkas CMD --help`.
if (args[0] === 'help' && named(args[1])) args.splice(0, 2, args[1]!, '--help');
// `farkas FILE`: the UI on a terminal, plain `verify` output otherwise.
if (args.length > 0 && !args[0]!.startsWith('-') && !named(args[0]) && args[0] !== 'help') {
  args.unshift(isInteractive() ? 'ui' : 'verify');
}
const command = named(args[0]);
startCheckerEarly(args);
if (command !== undefined) {
  (await modules[command.module]()).register(program);
} else {
  // The command list only (no command runs): names and descriptions from the catalog.
  for (const c of COMMANDS) program.command(c.name).description(c.description);
  const help = new Help();
  program.configureHelp({ subcommandTerm: (cmd) => named(cmd.name())?.term ?? help.subcommandTerm(cmd) });
}
await program.parseAsync(args, { from: 'user' });
