// The C-subset front end: source text to the CFG IR (lib/ir/cfg.ts).
// parseProgram throws InputError for syntax errors (`file:line:col: error: …`) and constructs outside
// the subset (`file:line:col: unsupported: …`); any other exception is a bug.
import type { Program } from '../ir/cfg.js';
import { parseTranslationUnit } from './parser.js';
import { lowerProgram } from './lower.js';

export function parseProgram(source: string, file: string): Program {
  return lowerProgram(parseTranslationUnit(source, file));
}

export { parseTranslationUnit } from './parser.js';
