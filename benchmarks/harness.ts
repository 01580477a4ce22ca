#!/usr/bin/env node
// Entry point of `npm run bench`: runs farkas on benchmark programs with known verdicts. See --help.
import { parseHarnessArgs } from './options.js';
import { runHarness } from './run.js';

// Piping into `head` closes stdout early; that ends the listing, it is not a failure.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

const parsed = parseHarnessArgs(process.argv.slice(2));
if ('exitCode' in parsed) {
  (parsed.exitCode === 0 ? process.stdout : process.stderr).write(parsed.output);
  process.exitCode = parsed.exitCode;
} else {
  process.exitCode = await runHarness(parsed.options, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  });
}
