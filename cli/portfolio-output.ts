// `verify --jobs N`: the option, and how the portfolio's progress and outcome are shown.
import { Option } from 'commander';
import { InputError } from '../lib/diagnostics.js';
import type { ProgressEvent } from '../lib/engine/types.js';
import { DEFAULT_JOBS, MAX_JOBS, type ConfigurationEvent, type PortfolioResult } from '../lib/portfolio/index.js';

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
      process.stderr.write(`  [${configuration ?? 'schedule'}] step ${e.index + 1}: template ${s.template}, widths ${s.widths.coefficient}/${s.widths.constant}/${s.widths.multiplier}: ${s.result} (${s.clauses} clauses, SAT ${s.satMillis} ms)\n`);
    },
    onConfiguration: (e) => {
      process.stderr.write(e.kind === 'started' ? `  [${e.configuration}] started\n` : `  [${e.configuration}] ${e.verdict}${e.reason ? ` (${e.reason})` : ''}\n`);
    },
  };
}

/** Added to the `verify --json` object when the portfolio ran (more than one job). */
export function portfolioJson(r: PortfolioResult): object {
  if (!r.portfolio) return {};
  return {
    portfolio: r.portfolio,
    ...(r.engineStats ? { engine: r.engineStats.engine, engineStats: r.engineStats } : {}),
  };
}

export function formatPortfolio(r: PortfolioResult): string {
  if (!r.portfolio) return '';
  const p = r.portfolio;
  return `portfolio: ${p.jobs} jobs; ${p.winner ? `answer from ${p.winner}` : 'no certified answer'} (${p.configurations.map((c) => `${c.name}: ${c.verdict}`).join(', ')})\n`;
}
