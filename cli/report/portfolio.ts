// Text and JSON renderings of how a portfolio race ended (`verify --jobs N`).
import type { PortfolioResult } from '../../lib/index.js';

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
