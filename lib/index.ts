// The farkas library API: everything the CLI does is available here.
export { parseProgram } from './frontend/index.js';
export { verify, type VerifyOptions } from './engines/constraint/verify.js';
export { verifyPortfolio, type PortfolioOptions, type PortfolioResult, type PortfolioReport } from './portfolio/index.js';
export type { VerifyResult, InvariantReport, StepStats, Verdict, ProgressEvent, Counterexample } from './problem/result.js';
export { wp, type WpOptions } from './infer/wp.js';
export { sp, type SpOptions } from './infer/sp.js';
export type { WpResult, SpResult, ConditionAnswer, NeighbourEvidence, ConditionEvent } from './infer/types.js';
export { runProgram } from './interpreter/index.js';
export { checkInvariants } from './certify/certificate.js';
export { loadSchedule, listSchedules, type Schedule } from './constraints/schedule.js';
export { createBackend } from './sat/index.js';
export { shutdownZ3 } from './sat/z3-context.js';
export { InputError } from './diagnostics.js';
export type { Program, Procedure, Edge, Location, Stmt, SourcePos } from './ir/cfg.js';
export type { Formula } from './ir/formula.js';
export type { Linear } from './ir/linear.js';
export { bounds, instrumentForBounds, type BoundsOptions, type BoundsResult, type LoopBound, type TightnessEvidence } from './infer/bounds.js';
// Thrown by bounds (and nonterm, which uses it) when a run of the original program breaks a certified loop bound: a bug in farkas.
export { ClaimContradicted } from './guard/claim.js';
export { findLoopBoundContradiction, guardLoopBounds, type LoopBoundContradiction } from './infer/bounds-guard.js';
export { cex, instrumentForCex, type CexResult, type CexCondition, type CexOptions, type ConcreteCounterexample } from './infer/cex.js';
export { nonterm, type NontermResult, type NontermCondition } from './infer/nonterm.js';
export { termination, type TerminationResult, type EndlessRun } from './infer/termination.js';
export type { RankedLoop } from './infer/ranking.js';

// What the CLI uses besides the above (cli/ imports lib only through this file).
export { polyToString } from './constraints/system.js';
export { cutpointPosition, cutpointsByLine, scopeAtLine } from './engines/constraint/pins.js';
export { availableEngines, CONSTRAINT_ENGINE, constraintEngine, engineByName, registeredEngines, type ConstraintEngineOptions, type Engine, type EngineName, type EngineOptions, type EngineResult, type EngineStats } from './engines/index.js';
export { EMIT_KINDS, exportProblem, type EmitKind } from './export/index.js';
export { type FrontendOptions } from './frontend/index.js';
export { type BoundsEvent } from './infer/bounds.js';
export { refuteWithCex } from './infer/refute.js';
export { type ConditionStats, type Coverage, type IncompleteSearch } from './infer/types.js';
export { DEFAULT_MAX_STEPS, formatRunResult, runResultToJson, type RunOptions, type RunResult } from './interpreter/index.js';
export { locationPos, type DataModel, type Property } from './ir/cfg.js';
export { printProcedure, printProgram, programToDot } from './ir/print.js';
export { CEX_AFTER_VERIFY_TIMEOUT_MS, CONDITION_QUERY_CONFLICTS, CONDITION_QUERY_PROPAGATIONS, CONDITION_SEARCH_TIMEOUT_MS, Deadline, DeadlineExceeded, FURTHER_ANSWER_MIN_QUERIES, STRENGTHEN_QUERIES, SAT_STEP_CONFLICTS, SAT_STEP_PROPAGATIONS, TRACE_RUN_STEPS, UI_CROSS_CHECK_ENGINE_TIMEOUT_MS, WorkLimitExceeded } from './limits.js';
export { crossCheck, crossCheckJson, formatCrossCheck, type CrossCheckOptions, type CrossCheckResult, type CrossCheckRow } from './portfolio/cross-check.js';
export { DEFAULT_JOBS, MAX_JOBS, type ConfigurationEvent } from './portfolio/index.js';
export { AnalysisUnsupported, prepareAnalysis, Problem, templatesFor } from './problem/prepare.js';
export { stepSystem, type StepSystem } from './problem/step-system.js';
export { toDimacs } from './sat/dimacs.js';
export { PathExplosionError, type CutsetStrategy } from './vc/cutset.js';
export { parseCExpression, typingOf } from './witness/c-expression.js';
export { witnessFor } from './witness/index.js';
export * as formula from './ir/formula.js';
export * as linear from './ir/linear.js';
