import test from 'ava';
import { render } from 'ink-testing-library';
import { Box } from 'ink';
import { readFileSync } from 'node:fs';
import { SourcePane } from './source-pane.js';
import { SearchPane, progressBar } from './search-pane.js';
import { EnginesPane, disagreement } from './engines-pane.js';
import { Help } from './help.js';
import { topBorder } from './frame.js';
import { MODES } from '../modes/index.js';

const fig1 = readFileSync(new URL('../../../../benchmarks/paper/fig1.c', import.meta.url), 'utf8');

test('source pane: numbered lines with loop (L), cut-point (C) and assertion (A) marks; trace line marked >', (t) => {
  const { lastFrame } = render(
    <SourcePane file="fig1.c" source={fig1} cutpoints={[{ line: 7, col: 5 }]} asserts={[{ line: 10, col: 3 }]} loops={[{ line: 6, col: 3 }]} selectedLine={7} traceLine={8} width={60} height={14} color={false} />,
  );
  const frame = lastFrame()!;
  t.regex(frame, /Source fig1\.c/);
  t.regex(frame, / 6 L\s+while \(x < 0\) \{/);
  t.regex(frame, / 7  C\s+x = x \+ y;/);
  t.regex(frame, />\s*8\s+y\+\+;/);
  t.regex(frame, /10  A\s+assert\(y > 0\);/);
});

test('source pane scrolls to keep the highlighted line visible', (t) => {
  const long = Array.from({ length: 60 }, (_, i) => `int v${i + 1};`).join('\n');
  const { lastFrame } = render(<SourcePane file="f.c" source={long} cutpoints={[]} asserts={[]} loops={[]} selectedLine={50} traceLine={null} width={40} height={8} color={false} />);
  t.regex(lastFrame()!, /int v50;/);
  t.notRegex(lastFrame()!, /int v1;/);
});

test('search pane: a row per configuration, the running one marked, elapsed time and a progress bar', (t) => {
  const { lastFrame } = render(
    <SearchPane
      rows={[
        { index: 0, template: '1x2', widths: '3/7/1', variables: 3107, clauses: 16588, satMillis: 575, result: 'unsat' },
        { index: 1, template: '1x3', widths: '3/8/2', variables: 5000, clauses: 30000 },
      ]}
      running
      phase="step 2"
      elapsedMillis={2300}
      bar={{ label: 'i in [0, 8]', fraction: 0.5 }}
      error={null}
      width={80}
      height={9}
      color={false}
    />,
  );
  const frame = lastFrame()!;
  t.regex(frame, /Search {2}2\.3 s/);
  t.regex(frame, /1 1x2\s+3\/7\/1\s+3107\s+16588\s+575\s+unsat/);
  t.regex(frame, /[|/\\-]\s+2 1x3\s+3\/8\/2\s+5000\s+30000\s+solving/);
  t.regex(frame, /\[##########\.{10}\] i in \[0, 8\]/);
  t.is(progressBar(1, 4), '[####]');
});

test('engines pane: rows with status and verdict; safe against unsafe is a disagreement', (t) => {
  const rows = [
    { name: 'constraint/SAT', status: 'done', verdict: 'safe', millis: 2100 },
    { name: 'symbolic', status: 'running' },
    { name: 'certificate check', status: 'pending' },
  ] as const;
  const agree = render(<EnginesPane rows={rows} clock={0} width={60} height={6} color={false} />).lastFrame()!;
  t.regex(agree, /\+ constraint\/SAT\s+safe\s+2\.1s/);
  t.regex(agree, /\| symbolic\s+running/);
  t.regex(agree, /\. certificate check/);
  t.notRegex(agree, /DISAGREE/);
  const conflict = [...rows, { name: 'lazy-abstraction', status: 'done', verdict: 'unsafe', millis: 10 }] as const;
  t.true(disagreement(conflict));
  t.regex(render(<EnginesPane rows={conflict} clock={0} width={60} height={7} color={false} />).lastFrame()!, /Engines {2}DISAGREE/);
  t.false(disagreement([...rows, { name: 'lazy-abstraction', status: 'done', verdict: 'unknown' }]));
});

test('help lists the key of every mode and quit', (t) => {
  const frame = render(<Help modes={MODES} height={22} />).lastFrame()!;
  t.regex(frame, new RegExp(`modes\\s+${MODES.map((m) => `${m.key} ${m.id}`).join('  ')}`));
  t.regex(frame, /q\s+quit/);
});

test('help fits 80x24: the modes share a line when the list would not fit', (t) => {
  const frame = render(<Box width={80}><Help modes={MODES} height={22} width={80} /></Box>).lastFrame()!;
  t.regex(frame, /q\s+quit/);
  t.true(frame.split('\n').length <= 22);
  t.notRegex(frame, /…\s*│/, 'no description is cut');
  t.true(frame.split('\n').every((l) => l.length <= 80));
  t.regex(frame, /<\s*\/\s*>\s+scroll the source sideways/);
  const tall = render(<Help modes={MODES} height={40} />).lastFrame()!;
  for (const m of MODES) t.regex(tall, new RegExp(`${m.key}\\s+mode: ${m.name}`));
});

test('frame title sits in the top border and keeps the width', (t) => {
  t.is(topBorder('Search', 12), '┌─ Search ─┐');
  t.is(topBorder('a very long title', 10).length, 10);
  t.is(topBorder('a very long title', 10), '┌─ a ver…┐');
});
