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
export { bounds, instrumentForBounds, type BoundsOptions, type BoundsResult, type LoopBound, type TightnessEvidence } from './bounds/bounds.js';
// Thrown by bounds (and nonterm, which uses it) when a run of the original program breaks a certified loop bound: a bug in farkas.
export { ClaimContradicted } from './guard/claim.js';
export { findLoopBoundContradiction, guardLoopBounds, type LoopBoundContradiction } from './guard/bounds-guard.js';
export { cex, instrumentForCex, type CexResult, type CexCondition, type CexOptions, type ConcreteCounterexample } from './conditions/cex.js';
export { nonterm, type NontermResult, type NontermCondition } from './conditions/nonterm.js';
