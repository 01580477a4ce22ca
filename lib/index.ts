// The farkas library API: everything the CLI does is available here.
export { parseProgram } from './frontend/index.js';
export { verify, type VerifyOptions } from './engine/verify.js';
export { verifyPortfolio, type PortfolioOptions, type PortfolioResult, type PortfolioReport } from './portfolio/index.js';
export type { VerifyResult, InvariantReport, StepStats, Verdict, ProgressEvent, Counterexample } from './engine/types.js';
export { wp, type WpOptions } from './conditions/wp.js';
export { sp, type SpOptions } from './conditions/sp.js';
export type { WpResult, SpResult, ConditionAnswer, NeighbourEvidence, ConditionEvent } from './conditions/types.js';
export { runProgram } from './interp/index.js';
export { checkInvariants } from './check/certificate.js';
export { loadSchedule, listSchedules, type Schedule } from './constraints/schedule.js';
export { createBackend } from './sat/index.js';
export { shutdownZ3 } from './sat/z3-context.js';
export { InputError } from './diagnostics.js';
export type { Program, Procedure, Edge, Location, Stmt, SourcePos } from './ir/cfg.js';
export type { Formula } from './ir/formula.js';
export type { Linear } from './ir/linear.js';
