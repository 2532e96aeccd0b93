// A reverse proxy that breaks a conforming gateway in one chosen way, to show that each conformance check
// notices the fault it is named for (a check that cannot fail proves nothing).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface ProxiedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface ProxiedResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Fault {
  /** Answer without asking the gateway (return undefined to forward). */
  intercept?(req: ProxiedRequest): ProxiedResponse | undefined;
  /** Change the gateway's answer. */
  alter?(req: ProxiedRequest, res: ProxiedResponse): ProxiedResponse;
}

export async function startFaultyProxy(
  targetOrigin: string,
  fault: Fault,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const incoming: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: { ...req.headers } as Record<string, string>,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    let answer = fault.intercept?.(incoming);
    if (!answer) {
      const { host: _host, ...headers } = incoming.headers;
      const upstream = await request(`${targetOrigin}${incoming.path}`, {
        method: incoming.method as 'GET',
        headers,
        body: incoming.body === '' ? undefined : incoming.body,
      });
      const flat: Record<string, string> = {};
      for (const [k, v] of Object.entries(upstream.headers)) {
        if (v !== undefined && k !== 'content-length' && k !== 'transfer-encoding' && k !== 'connection')
          flat[k] = Array.isArray(v) ? v.join(', ') : v;
      }
      answer = { status: upstream.statusCode, headers: flat, body: await upstream.body.text() };
      if (fault.alter) answer = fault.alter(incoming, answer);
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
