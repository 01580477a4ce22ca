// Which front end reads a file: Horn clauses (SMT-LIB HORN) when its name ends in .smt2 or it sets
// the logic HORN, C otherwise. Both give the same IR program.
import type { Program } from './ir/cfg.js';
import { parseProgram, type FrontendOptions } from './frontend/index.js';
import { looksLikeChc, readChc } from './chc/index.js';

export function isHornClauses(file: string, source: string): boolean {
  return /\.smt2$/i.test(file) || looksLikeChc(source);
}

/** The program of `source`, read by the front end its kind asks for (C options apply to C only). */
export function parseInput(source: string, file: string, options: FrontendOptions = {}): Program {
  return isHornClauses(file, source) ? readChc(source, file).program : parseProgram(source, file, options);
}
