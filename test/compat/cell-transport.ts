// Which transport a client's cell used to reach the Responses API: WebSocket mode, HTTP (POST /responses), or both
// (the client fell back mid-session). Read from the gateway's log lines of the cell's own key and from its generation
// records, so cells running at once are told apart.
export type Transport = 'WebSocket' | 'HTTP' | 'WebSocket, then HTTP';

interface LogLine {
  msg?: string;
  request_id?: string;
  key_id?: string;
  warm_up?: boolean;
  error?: number;
}

/**
 * `generations`: how many generation records the cell's key made (one per model turn, whatever the transport);
 * undefined when the cell made none.
 */
export function transportOf(lines: readonly string[], keyId: string, generations: number): Transport | undefined {
  if (generations === 0) return undefined;
  const parsed = lines.filter((line) => line.includes('"websocket ')).map((line) => JSON.parse(line) as LogLine);
  const sockets = new Set(
    parsed.filter((l) => l.msg === 'websocket opened' && l.key_id === keyId).map((l) => l.request_id),
  );
  // A warm-up calls no model and a refused turn may record nothing: neither is a generation to account for.
  const socketTurns = parsed.filter(
    (l) => l.msg === 'websocket turn' && sockets.has(l.request_id) && !l.warm_up && l.error === undefined,
  ).length;
  if (socketTurns === 0) return 'HTTP';
  return socketTurns >= generations ? 'WebSocket' : 'WebSocket, then HTTP';
}
