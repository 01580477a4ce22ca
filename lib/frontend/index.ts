// The C-subset front end: source text to the CFG IR (lib/ir/cfg.ts).
// parseProgram throws InputError for syntax errors (`file:line:col: error: …`) and constructs outside
// the subset (`file:line:col: unsupported: …`); any other exception is a bug.
import type { DataModel, Program, Property } from '../ir/cfg.js';
import { parseTranslationUnit } from './parser.js';
import { lowerProgram } from './lower.js';

export interface FrontendOptions {
  /** Sizes of `long` (and of size_t): ILP32 (32-bit, the default, as SV-COMP's ReachSafety loop
   * tasks) or LP64 (64-bit, as gcc on x86-64). */
  readonly dataModel?: DataModel;
  /** What the program is checked for. `unreach-call` (default): assertions hold, absence of signed
   * overflow is a premise (checked only on concrete runs). `no-overflow`: no signed operation
   * overflows; assertions only stop the run. */
  readonly property?: Property;
}

export function parseProgram(source: string, file: string, options: FrontendOptions = {}): Program {
  return lowerProgram(parseTranslationUnit(source, file), { dataModel: options.dataModel ?? 'ILP32', property: options.property ?? 'unreach-call' });
}

export { parseTranslationUnit } from './parser.js';
