// The compatibility matrix tells which transport a WebSocket-mode client's cell used, from the gateway's log lines of
// the cell's own key and its generation records, and the table shows it beside the turn.
import { describe, expect, it } from 'vitest';
import { transportOf } from '../compat/cell-transport.js';
import { codex } from '../compat/clients/codex.js';
import { FAMILIES, type CellResult } from '../compat/cells.js';
import { renderReport } from '../compat/write-report.js';

const line = (fields: Record<string, unknown>) => JSON.stringify({ level: 30, ...fields });
const opened = (requestId: string, keyId: string) =>
  line({ msg: 'websocket opened', request_id: requestId, key_id: keyId });
const turn = (requestId: string, extra: Record<string, unknown> = {}) =>
  line({ msg: 'websocket turn', request_id: requestId, ...extra });

describe('transportOf', () => {
  const otherCell = [opened('req_other', 'key_other'), turn('req_other'), turn('req_other')];

  it("counts only the turns of the cell's own sockets that called a model", () => {
    const lines = [
      opened('req_a', 'key_a'),
      turn('req_a', { warm_up: true }),
      turn('req_a'),
      ...otherCell,
      turn('req_a'),
      turn('req_a', { error: 400 }),
    ];
    expect(transportOf(lines, 'key_a', 2)).toBe('WebSocket');
    // A record more than the socket's turns: the rest went over HTTP after the socket.
    expect(transportOf(lines, 'key_a', 3)).toBe('WebSocket, then HTTP');
  });

  it('no socket of its own is HTTP; no record is no transport', () => {
    const http = [line({ msg: 'request', method: 'POST', path: '/api/v1/responses', status: 200 }), ...otherCell];
    expect(transportOf(http, 'key_a', 2)).toBe('HTTP');
    expect(transportOf(otherCell, 'key_a', 0)).toBeUndefined();
  });
});

it("the table shows a cell's transport beside its turn", () => {
  const result = (turnName: 'plain' | 'tool', transport?: CellResult['transport']): CellResult => ({
    cell: `cell-codex-openai-${turnName}`,
    client: 'codex',
    family: 'openai',
    turn: turnName,
    ok: true,
    detail: '',
    ms: 1000,
    ...(transport ? { transport } : {}),
  });
  const report = renderReport({
    results: [result('plain', 'WebSocket'), result('tool', 'WebSocket, then HTTP')],
    clients: [codex],
    families: FAMILIES.slice(0, 1),
    started: new Date('2026-12-07T12:00:00Z'),
    seconds: 10,
    concurrency: 2,
    commit: 'abc1234',
  });
  const row = report.split('\n').find((text) => text.includes('[Codex CLI]'));
  expect(row).toContain('✅ plain (WebSocket)<br>✅ tool (WebSocket, then HTTP)');
});
