// DIMACS CNF text: writing (as one string, or streamed to a file for CNFs too big for one string)
// and parsing (for tests and for reading back `--emit-dimacs` output).
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { InputError } from '../diagnostics.js';
import type { Cnf } from './types.js';

const CHUNK_CHARS = 1 << 20;

/** DIMACS text in pieces of roughly `chunkChars` characters; concatenated they form toDimacs(cnf). */
export function* dimacsChunks(cnf: Cnf, chunkChars = CHUNK_CHARS): Generator<string> {
  let chunk = `p cnf ${cnf.numVars} ${cnf.clauses.length}\n`;
  for (const clause of cnf.clauses) {
    chunk += clause.length === 0 ? '0\n' : `${clause.join(' ')} 0\n`;
    if (chunk.length >= chunkChars) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk.length > 0) yield chunk;
}

export function toDimacs(cnf: Cnf): string {
  return [...dimacsChunks(cnf)].join('');
}

/** Streams the DIMACS text to `path` without building it as one string. */
export async function writeDimacsFile(cnf: Cnf, path: string): Promise<void> {
  const out = createWriteStream(path);
  const failed = new Promise<never>((_, reject) => out.once('error', reject));
  failed.catch(() => undefined); // observed below; avoid an unhandled rejection in the meantime
  try {
    for (const chunk of dimacsChunks(cnf)) {
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
  } finally {
    out.destroy();
  }
}

/**
 * Parses DIMACS CNF (`c` comment lines, one `p cnf V C` header, clauses ended by 0, possibly spanning
 * lines; a SATLIB-style `%` line ends the input). Errors are positioned InputErrors.
 */
export function parseDimacs(text: string, fileName = '<dimacs>'): Cnf {
  let header: { numVars: number; numClauses: number } | null = null;
  const clauses: number[][] = [];
  let current: number[] = [];
  const lines = text.split('\n');
  function fail(detail: string, line: number, col: number): never {
    throw new InputError('error', detail, { file: fileName, line, col });
  }

  for (let lineIndex = 0; lineIndex < lines.length; lineIndex++) {
    const line = lines[lineIndex]!.replace(/\r$/, '');
    const lineNo = lineIndex + 1;
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('c')) continue;
    if (trimmed.startsWith('%')) break;
    if (trimmed.startsWith('p')) {
      if (header) fail('second DIMACS header', lineNo, 1);
      const match = /^p\s+cnf\s+(\d+)\s+(\d+)\s*$/.exec(trimmed);
      if (!match) fail("malformed DIMACS header, expected 'p cnf <vars> <clauses>'", lineNo, 1);
      header = { numVars: Number(match[1]), numClauses: Number(match[2]) };
      continue;
    }
    if (!header) fail("clause before the 'p cnf' header", lineNo, 1);
    const tokenPattern = /\S+/g;
    for (let token = tokenPattern.exec(line); token; token = tokenPattern.exec(line)) {
      const col = token.index + 1;
      if (!/^-?\d+$/.test(token[0])) fail(`expected an integer literal, got '${token[0]}'`, lineNo, col);
      const literal = Number(token[0]);
      if (literal === 0) {
        clauses.push(current);
        current = [];
        continue;
      }
      if (Math.abs(literal) > header.numVars) {
        fail(`literal ${literal} exceeds the declared ${header.numVars} variables`, lineNo, col);
      }
      current.push(literal);
    }
  }
  const end = { line: lines.length, col: 1 };
  if (!header) fail("missing 'p cnf' header", end.line, end.col);
  if (current.length > 0) fail('last clause is not terminated by 0', end.line, end.col);
  if (clauses.length !== header.numClauses) {
    fail(`header declares ${header.numClauses} clauses but ${clauses.length} were given`, end.line, end.col);
  }
  return { numVars: header.numVars, clauses };
}
