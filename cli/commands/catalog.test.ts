import test from 'ava';
import { Command } from 'commander';
import { COMMANDS } from './catalog.js';
import { FARKAS_BIN } from '../testing/farkas-bin.js';

// main.ts imports a command's module only when that command runs: the catalog must name, for every
// command, the module that registers it, and every module must register only catalogued commands.
test('catalog: each module registers exactly the commands the catalog assigns to it, with their descriptions', async (t) => {
  const modules = [...new Set(COMMANDS.map((c) => c.module))];
  for (const module of modules) {
    const program = new Command();
    const { register } = (await import(`./${module}.js`)) as { register(p: Command): void };
    register(program);
    const registered = program.commands.map((c) => [c.name(), c.description()]);
    const expected = COMMANDS.filter((c) => c.module === module).map((c) => [c.name, c.description]);
    t.deepEqual(registered.sort(), expected.sort(), module);
    for (const c of program.commands) {
      const term = COMMANDS.find((e) => e.name === c.name())!.term;
      t.is(term, `${c.name()} [options] ${c.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`)).join(' ')}`, c.name());
    }
  }
});

test('farkas --help lists every command from the catalog, and help CMD shows the command\'s own options', async (t) => {
  const { execFileSync } = await import('node:child_process');
  const main = FARKAS_BIN;
  const top = execFileSync(process.execPath, [main, '--help'], { encoding: 'utf8' });
  for (const c of COMMANDS) t.regex(top, new RegExp(`^  ${c.term.replace(/[[\]]/g, '\\$&')} `, 'm'), c.name);
  t.regex(top, /^ {2}help \[command\] /m);
  const verifyHelp = execFileSync(process.execPath, [main, 'help', 'verify'], { encoding: 'utf8' });
  t.regex(verifyHelp, /Usage: farkas verify \[options\] <file>/);
  t.regex(verifyHelp, /--timeout/);
});
