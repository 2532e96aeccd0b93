// Sends bytes over a plain TCP socket, exactly as given (HTTP clients refuse to send malformed requests), and reads
// what comes back until the server closes the connection.
import net from 'node:net';

export interface RawResponse {
  /** Everything the server sent, as text. */
  raw: string;
  status?: number;
  /** Lower-case names; the first response on the connection only. */
  headers: Record<string, string>;
  body: string;
}

/** Writes `chunks` one after another (a function chunk runs between writes and may wait) and collects the answer. */
export function sendRaw(url: string, ...chunks: (string | (() => Promise<void>))[]): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const received: Buffer[] = [];
    const socket = net.connect(Number(port), hostname);
    socket.on('data', (data) => received.push(data));
    // The server half-closes after its answer; closing our side too ends the exchange.
    socket.on('end', () => socket.destroy());
    socket.on('close', () => resolve(parseRawResponse(Buffer.concat(received).toString('latin1'))));
    socket.on('error', (err) => (received.length > 0 ? undefined : reject(err)));
    socket.once('connect', async () => {
      for (const chunk of chunks) {
        if (typeof chunk === 'string') socket.write(chunk, 'latin1');
        else await chunk();
      }
    });
  });
}

export function parseRawResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { raw, headers: {}, body: '' };
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const rest = raw.slice(end + 4);
  return {
    raw,
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]),
    headers,
    body: length === undefined ? rest : rest.slice(0, length),
  };
}
