// `verify --jobs N`: the option, and how the portfolio's progress and outcome are shown.
import { Option } from 'commander';
import { InputError, type ProgressEvent, DEFAULT_JOBS, MAX_JOBS, type ConfigurationEvent } from '../lib/index.js';
import { answeredBy } from './report/answered-by.js';

export function jobsOption(): Option {
  return new Option('-j, --jobs <n>', `parallel worker threads racing lanes of the schedule and the interpolation engines (default: the number of cores, 1 on two cores or fewer; here ${DEFAULT_JOBS()}); 1 is the sequential search; at most the number of cores (${MAX_JOBS()})`);
}

/** The --jobs value, capped at the number of cores (with a note on stderr). */
export function parseJobs(text: string | undefined): number {
  if (text === undefined) return DEFAULT_JOBS();
  if (!/^\s*\d+\s*$/.test(text) || Number(text) < 1) throw new InputError('error', `--jobs expects a positive integer, got '${text}'`, null);
  const jobs = Number(text);
  if (jobs > MAX_JOBS()) {
    process.stderr.write(`farkas: note: --jobs ${jobs} capped at ${MAX_JOBS()}, the number of cores\n`);
    return MAX_JOBS();
  }
  return jobs;
}

/** Several configurations report at once, so every progress line is complete and names its source. */
export function portfolioProgressPrinter(): { onProgress: (e: ProgressEvent, configuration?: string) => void; onConfiguration: (e: ConfigurationEvent) => void } {
  return {
    onProgress: (e, configuration) => {
      if (e.kind !== 'step-done') return;
      const s = e.stats;
      process.stderr.write(`  [${configuration ?? 'schedule'}] step ${e.index + 1}: template ${s.template}, widths ${s.widths.coefficient}/${s.widths.constant}/${s.widths.multiplier}: ${s.result}${answeredBy(s.backend)} (${s.clauses} clauses, SAT ${s.satMillis} ms)\n`);
    },
    onConfiguration: (e) => {
      process.stderr.write(e.kind === 'started' ? `  [${e.configuration}] started\n` : `  [${e.configuration}] ${e.verdict}${e.reason ? ` (${e.reason})` : ''}\n`);
    },
  };
}

/** Added to the `verify --json` object when the portfolio ran (more than one job). */
