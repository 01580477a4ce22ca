import test from 'ava';
import { DEFAULT_JOBS, MAX_JOBS } from '../lib/start.js';
import { earlyCheckerStart } from './early-start.js';

test('verify with one job starts the checker early, with or without --timeout', (t) => {
  for (const jobs of [['--jobs', '1'], ['--jobs=1'], ['-j', '1'], ['-j1']]) {
    t.true(earlyCheckerStart(['verify', 'f.c', ...jobs]), jobs.join(' '));
  }
  t.true(earlyCheckerStart(['verify', '--timeout', '10', 'f.c', '-j', '1']));
  t.true(earlyCheckerStart(['verify', '--timeout=10', '-j1', 'f.c']));
  // The last --jobs counts, as in commander.
  t.true(earlyCheckerStart(['verify', '-j', '4', 'f.c', '--jobs', '1']));
});

test('without --jobs, the default number of jobs decides', (t) => {
  t.is(earlyCheckerStart(['verify', 'f.c']), DEFAULT_JOBS() === 1);
});

test('a portfolio, another command, --emit or a bad --jobs start nothing here', (t) => {
  // Two jobs are a portfolio unless the machine has one core (then --jobs is capped at 1).
  t.is(earlyCheckerStart(['verify', 'f.c', '--jobs', '2']), MAX_JOBS() === 1);
  for (const args of [['run', 'f.c'], ['verify', 'f.c', '-j1', '--emit', 'vcs'], ['verify', 'f.c', '--jobs', 'x'], [], ['cfg', 'f.c', '-j1'], ['bounds', 'f.c', '--show-instrumented']]) {
    t.false(earlyCheckerStart(args), args.join(' '));
  }
});

test('--emit-dimacs and --cross-check run the search in this process whatever --jobs says', (t) => {
  t.true(earlyCheckerStart(['verify', 'f.c', '--jobs', '2', '--emit-dimacs', 'out.cnf']));
  t.true(earlyCheckerStart(['verify', 'f.c', '--jobs', '2', '--cross-check']));
});

test('wp, sp, cex, nonterm and bounds start it early', (t) => {
  for (const command of ['wp', 'sp', 'cex', 'nonterm', 'bounds']) t.true(earlyCheckerStart([command, 'f.c']), command);
});
