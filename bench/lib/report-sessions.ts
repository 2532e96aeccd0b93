// The sessions bench's report (sessions-compare.ts): per mode, what the gateway received, its CPU and the turn's wall
// time, each the median over the repeated sessions with their range, then the same at a few turns along the session.
import type { SessionMode, TurnSample } from './agent-session.js';
import type { MachineShare } from './machine-window.js';
import { median, round } from './stats.js';

export interface SessionRun {
  mode: SessionMode;
  /** 1-based repetition; the modes' order rotates from one repetition to the next. */
  repetition: number;
  turns: TurnSample[];
  /** CPU of the scratch database's PostgreSQL backends over the session, per turn (clock ticks: coarse). */
  dbCpuMsPerTurn: number;
  machine: MachineShare;
}

export const MODE_TITLES: Record<SessionMode, string> = {
  full: 'HTTP, whole conversation each turn',
  previous: 'HTTP, `previous_response_id` (store)',
  websocket: 'WebSocket, `previous_response_id`',
};

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** "median (min–max)" of one figure over the sessions. */
function spread(values: readonly number[], digits: number): string {
  const m = round(median(values)!, digits).toFixed(digits);
  return `${m} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
}

const kb = (bytes: number) => round(bytes / 1000, 1).toFixed(1);

export function renderSessions(runs: readonly SessionRun[], modes: readonly SessionMode[]): string {
  const turns = runs[0]?.turns.length ?? 0;
  const lines = [
    '| mode | received per session | received per turn: first → last | gateway CPU ms/turn | PostgreSQL CPU ms/turn | wall ms/turn |',
    '|---|---|---|---|---|---|',
  ];
  for (const mode of modes) {
    const mine = runs.filter((r) => r.mode === mode);
    const total = mine[0].turns.reduce((a, t) => a + t.bytes, 0);
    const first = mine[0].turns[0].bytes;
    const last = mine[0].turns.at(-1)!.bytes;
    lines.push(
      `| ${MODE_TITLES[mode]} | ${round(total / 1e6, 2).toFixed(2)} MB | ${kb(first)} KB → ${kb(last)} KB | ` +
        `${spread(
          mine.map((r) => mean(r.turns.map((t) => t.cpuMs))),
          1,
        )} | ${spread(
          mine.map((r) => r.dbCpuMsPerTurn),
          1,
        )} | ${spread(
          mine.map((r) => mean(r.turns.map((t) => t.wallMs))),
          1,
        )} |`,
    );
  }
  const marks = [1, 2, Math.round(turns / 3), Math.round((2 * turns) / 3), turns].filter(
    (t, i, all) => t >= 1 && all.indexOf(t) === i,
  );
  lines.push(
    '',
    `Along the session (median over the sessions; KB received · gateway CPU ms · wall ms):`,
    '',
    `| mode | ${marks.map((t) => `turn ${t}`).join(' | ')} |`,
    `|---|${marks.map(() => '---').join('|')}|`,
  );
  for (const mode of modes) {
    const mine = runs.filter((r) => r.mode === mode);
    const cell = (t: number) => {
      const at = mine.map((r) => r.turns[t - 1]);
      return `${kb(at[0].bytes)} · ${median(at.map((s) => s.cpuMs))!.toFixed(1)} · ${median(at.map((s) => s.wallMs))!.toFixed(1)}`;
    };
    lines.push(`| ${MODE_TITLES[mode]} | ${marks.map(cell).join(' | ')} |`);
  }
  const foreign = runs.map((r) => r.machine.foreignPct);
  const upstream = modes.map((m) => runs.find((r) => r.mode === m)!.turns.at(-1)!.upstreamTokens);
  lines.push(
    '',
    `The mock upstream received the whole conversation in every mode (last turn: ${upstream.join(' / ')} input tokens ` +
      'by its count of 4 bytes a token): the gateway expands a continued turn before it goes upstream.',
    '',
    `${runs.length / modes.length} sessions per mode; foreign load on the machine during a session: ` +
      `${Math.min(...foreign)}–${Math.max(...foreign)}% (median ${median(foreign)}%).`,
  );
  return lines.join('\n');
}
