import test from 'ava';
import { DEFAULT_JOBS, MAX_JOBS } from '../lib/start.js';
import { earlyCheckerStart } from './early-start.js';

const untimed = { timed: false };

test('verify with one job starts the checker early, timed when --timeout is given', (t) => {
  for (const jobs of [['--jobs', '1'], ['--jobs=1'], ['-j', '1'], ['-j1']]) {
    t.deepEqual(earlyCheckerStart(['verify', 'f.c', ...jobs]), untimed, jobs.join(' '));
  }
  t.deepEqual(earlyCheckerStart(['verify', '--timeout', '10', 'f.c', '-j', '1']), { timed: true });
  t.deepEqual(earlyCheckerStart(['verify', '--timeout=10', '-j1', 'f.c']), { timed: true });
  // The last --jobs counts, as in commander.
  t.deepEqual(earlyCheckerStart(['verify', '-j', '4', 'f.c', '--jobs', '1']), untimed);
});

test('without --jobs, the default number of jobs decides', (t) => {
  t.deepEqual(earlyCheckerStart(['verify', 'f.c']), DEFAULT_JOBS() === 1 ? untimed : null);
});

test('a portfolio, another command, --emit or a bad --jobs start nothing here', (t) => {
  // Two jobs are a portfolio unless the machine has one core (then --jobs is capped at 1).
  t.deepEqual(earlyCheckerStart(['verify', 'f.c', '--jobs', '2']), MAX_JOBS() === 1 ? untimed : null);
  for (const args of [['run', 'f.c'], ['verify', 'f.c', '-j1', '--emit', 'vcs'], ['verify', 'f.c', '--jobs', 'x'], [], ['cfg', 'f.c', '-j1'], ['bounds', 'f.c', '--show-instrumented']]) {
    t.is(earlyCheckerStart(args), null, args.join(' '));
  }
});

test('--emit-dimacs and --cross-check run the search in this process whatever --jobs says', (t) => {
  t.deepEqual(earlyCheckerStart(['verify', 'f.c', '--jobs', '2', '--emit-dimacs', 'out.cnf']), untimed);
  t.deepEqual(earlyCheckerStart(['verify', 'f.c', '--jobs', '2', '--cross-check']), untimed);
});

test('wp, sp, cex, nonterm and bounds start it early, timed (their --timeout has a default)', (t) => {
  for (const command of ['wp', 'sp', 'cex', 'nonterm', 'bounds']) t.deepEqual(earlyCheckerStart([command, 'f.c']), { timed: true }, command);
});
