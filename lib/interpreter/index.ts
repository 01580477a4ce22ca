// The concrete interpreter: run a program (or replay a counterexample) and render the result.
export { runProgram } from './run.js';
export { formatRunResult, describeOutcome, visitedLines, foldRepeats, runResultToJson, outcomeToJson, traceStepToJson } from './format.js';
export type { FormatOptions, TraceDetail, Json } from './format.js';
export { stmtText } from './stmt-text.js';
export { DEFAULT_MAX_CALL_DEPTH, DEFAULT_MAX_STEPS } from './types.js';
export type { RunOptions, RunOutcome, RunOutcomeKind, RunResult, TraceStep, ValueRange } from './types.js';
