import test from 'ava';
import fc from 'fast-check';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '../diagnostics.js';
import { dimacsChunks, parseDimacs, toDimacs, writeDimacsFile } from './dimacs.js';
import { smallCnf, seededRandom3Cnf } from './testing/instances.js';

test('toDimacs writes the header and 0-terminated clauses', (t) => {
  t.is(toDimacs({ numVars: 3, clauses: [[1, -2], [3], []] }), 'p cnf 3 3\n1 -2 0\n3 0\n0\n');
});

test('parseDimacs inverts toDimacs', (t) => {
  fc.assert(
    fc.property(smallCnf(), (cnf) => {
      t.deepEqual(parseDimacs(toDimacs(cnf)), cnf);
    }),
  );
});

test('parseDimacs accepts comments, clauses spanning lines, CRLF and a SATLIB % trailer', (t) => {
  const text = 'c a comment\r\np cnf 3 2\r\n1 -2\r\n 3 0 -1\n0\n%\n0\n';
  t.deepEqual(parseDimacs(text), { numVars: 3, clauses: [[1, -2, 3], [-1]] });
});

test('parseDimacs reports positioned errors', (t) => {
  const at = (text: string) => t.throws(() => parseDimacs(text, 'x.cnf'), { instanceOf: InputError })!.message;
  t.is(at('p cnf 2 1\n1 3 0\n'), 'x.cnf:2:3: error: literal 3 exceeds the declared 2 variables');
  t.is(at('p cnf 2 1\n1 x 0\n'), "x.cnf:2:3: error: expected an integer literal, got 'x'");
  t.is(at('1 2 0\n'), "x.cnf:1:1: error: clause before the 'p cnf' header");
  t.regex(at('p cnf 2 2\n1 0\n'), /header declares 2 clauses but 1 were given/);
  t.regex(at('p cnf 2 1\n1 2\n'), /last clause is not terminated by 0/);
  t.regex(at('p dnf 2 1\n'), /^x\.cnf:1:1: error: malformed DIMACS header/);
  t.regex(at(''), /missing 'p cnf' header/);
});

test('dimacsChunks splits the text without changing it', (t) => {
  const cnf = seededRandom3Cnf(50, 400, 7);
  const chunks = [...dimacsChunks(cnf, 100)];
  t.true(chunks.length > 10);
  t.is(chunks.join(''), toDimacs(cnf));
});

test('writeDimacsFile streams the same text to a file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'farkas-dimacs-test-'));
  try {
    const cnf = seededRandom3Cnf(5000, 100_000, 3);
    const path = join(dir, 'big.cnf');
    await writeDimacsFile(cnf, path);
    t.is(await readFile(path, 'utf8'), toDimacs(cnf));
    await t.throwsAsync(writeDimacsFile(cnf, join(dir, 'missing-dir', 'x.cnf')), { code: 'ENOENT' });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
