// Live progress of the parameter search: one row per attempted configuration (template, widths,
// CNF size, SAT time, result), a spinner on the running one, elapsed time and a progress bar.
import { Text } from 'ink';
import type { SearchRow } from '../state.js';
import { Frame, spinner } from './frame.js';

export interface SearchPaneProps {
  readonly rows: readonly SearchRow[];
  readonly running: boolean;
  readonly phase: string;
  readonly elapsedMillis: number;
  readonly bar: { readonly label: string; readonly fraction: number } | null;
  readonly error: string | null;
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
}

const num = (n: number | undefined, w: number) => (n === undefined ? '' : String(n)).padStart(w);

export function progressBar(fraction: number, width: number): string {
  const full = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${'#'.repeat(full)}${'.'.repeat(width - full)}]`;
}

export function SearchPane(p: SearchPaneProps) {
  const inner = Math.max(1, p.height - 2);
  const barLines = p.bar ? 1 : 0;
  const fit = Math.max(0, inner - 2 - barLines);
  const rows = p.rows.slice(-fit);
  // By its first word: a result may go on to say which solver answered ("sat by dimacs:cadical -q").
  const resultColor = (r: string | undefined) => {
    const kind = r?.split(' ')[0];
    return !p.color ? {} : kind === 'sat' ? { color: 'green' } : kind === 'unsat' ? { color: 'gray' } : r ? { color: 'yellow' } : {};
  };
  return (
    <Frame title={`Search  ${(p.elapsedMillis / 1000).toFixed(1)} s${p.running ? ' ' + spinner(p.elapsedMillis) : ''}`} width={p.width} height={p.height} color={p.color}>
      <Text wrap="truncate" {...(p.error && p.color ? { color: 'red' } : {})}>{p.error ?? `${p.running ? 'running' : 'finished'}${p.phase ? `: ${p.phase}` : ''}`}</Text>
      <Text wrap="truncate" bold>{'   # template  widths      vars  clauses  SAT ms  result'}</Text>
      {rows.map((r) => (
        <Text key={r.index} wrap="truncate">
          {`${r.result === undefined && p.running ? spinner(p.elapsedMillis) : ' '}${num(r.index + 1, 3)} ${r.template.padEnd(9)} ${r.widths.padEnd(8)} ${num(r.variables, 6)} ${num(r.clauses, 8)} ${num(r.satMillis, 7)}  `}
          <Text {...resultColor(r.result)}>{r.result ?? (p.running ? 'solving' : '')}</Text>
          {r.reason ? ` (${r.reason})` : ''}
        </Text>
      ))}
      {p.bar ? <Text wrap="truncate">{`${progressBar(p.bar.fraction, 20)} ${p.bar.label}`}</Text> : null}
    </Frame>
  );
}
