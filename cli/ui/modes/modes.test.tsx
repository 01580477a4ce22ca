import test from 'ava';
import { render } from 'ink-testing-library';
import { MODES, modeById, modeByKey } from './index.js';
import { conditionEvents, wpData, wpMode } from './wp.js';
import { verifyMode, type VerifyData } from './verify.js';
import { spData, spMode } from './sp.js';
import type { WorkerMessage } from '../protocol.js';
import type { WpResult } from '../../../lib/conditions/types.js';
import * as F from '../../../lib/ir/formula.js';

test('the registry has one key per mode', (t) => {
  t.is(new Set(MODES.map((m) => m.key)).size, MODES.length);
  t.is(modeByKey('v'), verifyMode);
  t.is(modeById('wp'), wpMode);
});

const wpResult: WpResult = {
  function: 'WP1',
  strategy: 'neighbourhood',
  parameters: ['i', 'j'],
  preconditions: [
    { expression: 'i <= 0', formula: F.TRUE, certified: true, invariants: [{ line: 7, expression: 'x <= 0' }], neighbours: [{ expression: 'i <= 1', move: '+1', input: new Map([['i', 1n], ['j', 5n]]), line: 11, replayed: true }], locallyOptimal: true },
    { expression: 'i >= j', formula: F.TRUE, certified: true, invariants: [], neighbours: [{ expression: 'i >= j - 1', move: '-1', replayed: false, note: 'no failing input found' }], locallyOptimal: false },
  ],
  stats: { queries: [], iterations: 2, concreteRuns: 300, millis: 8500 },
};

test('wp: preconditions as a list with their status and the neighbours\' witnesses', (t) => {
  const data = wpData(wpResult);
  const frame = render(<wpMode.Result data={data} selected={null} traceIndex={0} width={70} height={10} color={false} />).lastFrame()!;
  t.regex(frame, /preconditions of WP1\(i, j\), neighbourhood/);
  t.regex(frame, /1\. i <= 0 {2}\[certified\] \[locally weakest\]/);
  t.regex(frame, /not i <= 1: i=1, j=5 fails line 11/);
  t.regex(frame, /2\. i >= j {2}\[certified\]$/m);
  t.regex(frame, /not i >= j - 1: no failing input found/);
  t.regex(frame, /300 runs, 8\.5 s/);
  t.deepEqual(JSON.parse(JSON.stringify(wpMode.exportJson(data))).preconditions.map((p: { expression: string }) => p.expression), ['i <= 0', 'i >= j']);
});

test('wp: a short pane says how many lines were left out', (t) => {
  const frame = render(<wpMode.Result data={wpData(wpResult)} selected={null} traceIndex={0} width={70} height={3} color={false} />).lastFrame()!;
  t.regex(frame, /… 4 more \(x exports all\)/);
});

test('wp progress: query rows, answers, and a bar that fills as the binary search narrows', (t) => {
  const sent: WorkerMessage[] = [];
  const on = conditionEvents((m) => sent.push(m));
  on({ kind: 'query-start', index: 0, conjuncts: 1, template: '1x2', purpose: 'locally weakest precondition' });
  on({ kind: 'binary-step', entry: 'D1', low: '0', high: '255' });
  on({ kind: 'binary-step', entry: 'D1', low: '0', high: '15' });
  on({ kind: 'binary-step', entry: 'D1', low: '3', high: '3' });
  on({ kind: 'answer', expression: 'i >= j' });
  const events = sent.map((m) => (m.type === 'search' ? m.event : null));
  t.like(events[0], { kind: 'row-start', template: '1x2', widths: '1 conj', purpose: 'locally weakest precondition' });
  const bars = events.filter((e) => e?.kind === 'bar') as { fraction: number; label: string }[];
  t.is(bars[0]!.fraction, 0);
  t.is(bars[1]!.fraction, 0.5);
  t.is(bars[2]!.fraction, 1);
  t.is(bars[2]!.label, 'D1 in [3, 3]');
  t.like(bars[3], { label: 'answers 1/3' });
});

test('verify: the invariant of the selected cut-point, else the first one', (t) => {
  const data: VerifyData = {
    verdict: 'safe', certified: true, function: 'f', schedule: 'paper', template: '2x2', widths: '3/8/1', json: {},
    invariants: [{ line: 5, col: 3, expression: 'a >= 0', function: 'f' }, { line: 9, col: 3, expression: 'b <= a', function: 'f' }],
  };
  const at9 = render(<verifyMode.Result data={data} selected={{ line: 9, col: 3 }} traceIndex={0} width={60} height={8} color={false} />).lastFrame()!;
  t.regex(at9, /line 9:3\n.*b <= a/);
  t.regex(at9, /2 cut-points/);
  const other = render(<verifyMode.Result data={data} selected={{ line: 12, col: 3 }} traceIndex={0} width={60} height={8} color={false} />).lastFrame()!;
  t.regex(other, /line 5:3 \(first cut-point\)/);
  const unknown = render(<verifyMode.Result data={{ ...data, verdict: 'unknown', certified: false, reason: 'timeout after 3 s' }} selected={null} traceIndex={0} width={60} height={8} color={false} />).lastFrame()!;
  t.regex(unknown, /unknown: timeout after 3 s/);
  t.regex(unknown, /not certified \(candidate\)/);
});

test('sp: the postcondition with the reachable states that rule out its neighbours', (t) => {
  const data = spData({
    function: 'f', line: 12, at: 'exit', variables: ['x', 'y'],
    postcondition: { expression: 'x == y', formula: F.TRUE, certified: true, invariants: [], neighbours: [{ expression: 'x <= y - 1', move: '-1', state: new Map([['x', 3n], ['y', 3n]]), replayed: true }], locallyOptimal: true },
    stats: { queries: [], iterations: 1, concreteRuns: 10, millis: 1200 },
  });
  const frame = render(<spMode.Result data={data} selected={null} traceIndex={0} width={70} height={8} color={false} />).lastFrame()!;
  t.regex(frame, /strongest postcondition of f at line 12 over x, y/);
  t.regex(frame, /x == y {2}\[certified\] \[locally strongest\]/);
  t.regex(frame, /not x <= y - 1: reaches x=3, y=3/);
  t.is(modeByKey('s'), spMode);
});
