// One row per engine with status, verdict and time; definite verdicts that disagree are shown red.
import { Text } from 'ink';
import type { EngineRow } from '../protocol.js';
import { Frame, spinner } from './frame.js';

export interface EnginesPaneProps {
  readonly rows: readonly EngineRow[];
  readonly clock: number;
  readonly width: number;
  readonly height: number;
  readonly color: boolean;
}

/** Safe from one engine and unsafe from another (unknown agrees with everything). */
export function disagreement(rows: readonly EngineRow[]): boolean {
  const verdicts = new Set(rows.filter((r) => r.status === 'done' && r.name !== 'certificate check').map((r) => r.verdict));
  const check = rows.find((r) => r.name === 'certificate check');
  return (verdicts.has('safe') && verdicts.has('unsafe')) || (check?.verdict === 'rejected' && verdicts.has('safe'));
}

function icon(r: EngineRow, clock: number): string {
  return r.status === 'pending' ? '.' : r.status === 'running' ? spinner(clock) : r.status === 'cancelled' ? ' ' : r.status === 'error' ? 'x' : r.verdict === 'unknown' ? '?' : '+';
}

export function EnginesPane(p: EnginesPaneProps) {
  const conflict = disagreement(p.rows);
  const inner = Math.max(1, p.height - 2);
  return (
    <Frame title={conflict ? 'Engines  DISAGREE' : 'Engines'} width={p.width} height={p.height} color={p.color}>
      {p.rows.length === 0 ? <Text wrap="truncate">run verify (v) to compare engines</Text> : null}
      {p.rows.slice(0, inner).map((r) => {
        const definite = r.verdict === 'safe' || r.verdict === 'unsafe' || r.verdict === 'rejected';
        const red = p.color && conflict && definite;
        return (
          <Text key={r.name} wrap="truncate" {...(red ? { color: 'red' } : {})}>
            {`${icon(r, p.clock)} ${r.name.padEnd(17)} ${(r.verdict ?? (r.status === 'running' || r.status === 'cancelled' ? r.status : '')).padEnd(8)} ${r.millis !== undefined ? `${(r.millis / 1000).toFixed(1)}s` : ''}${r.note && r.verdict !== 'safe' && r.verdict !== 'valid' ? `  ${r.note}` : ''}`}
          </Text>
        );
      })}
    </Frame>
  );
}
