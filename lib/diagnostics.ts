// Errors the user caused (bad syntax, constructs outside the supported C subset, bad options).
// They carry a source position and print as `file:line:col: error: …` / `…: unsupported: …`;
// anything else that escapes is an internal bug.
import type { SourcePos } from './ir/cfg.js';

export type DiagnosticKind = 'error' | 'unsupported';

export class InputError extends Error {
  constructor(
    readonly kind: DiagnosticKind,
    readonly detail: string,
    readonly pos: SourcePos | null,
  ) {
    super(formatDiagnostic(kind, detail, pos));
    this.name = 'InputError';
  }
}

export function formatDiagnostic(kind: DiagnosticKind, detail: string, pos: SourcePos | null): string {
  const where = pos ? `${pos.file}:${pos.line}:${pos.col}: ` : '';
  return `${where}${kind}: ${detail}`;
}

export function syntaxError(detail: string, pos: SourcePos | null): InputError {
  return new InputError('error', detail, pos);
}

export function unsupported(what: string, pos: SourcePos | null): InputError {
  return new InputError('unsupported', what, pos);
}
