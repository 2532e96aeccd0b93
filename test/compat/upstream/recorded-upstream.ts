// The recorded upstream: one loopback server standing in for every model family the matrix covers, each under its
// own path prefix (the gateway's <PROVIDER>_BASE_URL points there), answering in that vendor's documented wire
// format what script.ts decides from the request's content. Every request is kept, with its family, so a test can
// assert on what reached the vendor.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readTurn, type Protocol } from './read-turn.js';
import { answerFor } from './script.js';
import { renderChat } from './render-chat.js';
import { renderGemini } from './render-gemini.js';
import { renderMessages } from './render-messages.js';
import { renderResponses } from './render-responses.js';

export const FAMILY_PREFIXES = ['openai', 'anthropic', 'google', 'deepseek', 'pass'] as const;
export type FamilyPrefix = (typeof FAMILY_PREFIXES)[number];

export interface UpstreamRequest {
  family: string;
  protocol?: Protocol;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

function protocolOf(path: string): Protocol | undefined {
  const bare = path.split('?')[0];
  if (bare.endsWith('/chat/completions')) return 'chat';
  if (bare.endsWith('/responses')) return 'responses';
  if (bare.endsWith('/messages')) return 'messages';
  if (/:(stream)?generateContent$/i.test(bare)) return 'gemini';
  return undefined;
}

export class RecordedUpstream {
  readonly requests: UpstreamRequest[] = [];
  url = '';
  private server = http.createServer((req, res) => void this.handle(req, res));

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The base URL of one family, as its provider's <PROVIDER>_BASE_URL. */
  base(family: FamilyPrefix, suffix = ''): string {
    return `${this.url}/${family}${suffix}`;
  }

  /** The requests of one family whose conversation text contains `needle` (a cell's own marker). */
  find(family: string, needle: string): UpstreamRequest[] {
    return this.requests.filter(
      (request) => request.family === family && JSON.stringify(request.body).includes(needle),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const raw: Buffer[] = [];
    for await (const chunk of req) raw.push(chunk as Buffer);
    const text = Buffer.concat(raw).toString('utf8');
    let body: any = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = text;
    }
    const [, family = '', ...rest] = (req.url ?? '/').split('/');
    const path = `/${rest.join('/')}`;
    const protocol = protocolOf(path);
    this.requests.push({ family, protocol, method: req.method ?? '', path, headers: req.headers, body });
    if (path.split('?')[0].endsWith('/count_tokens')) return json(res, 200, { input_tokens: 120 });
    if (!protocol || !(FAMILY_PREFIXES as readonly string[]).includes(family) || req.method !== 'POST') {
      return json(res, 404, {
        error: { message: `recorded upstream: no route for ${req.method} ${req.url}`, type: 'not_found' },
      });
    }
    const turn = readTurn(protocol, body, path);
    const answer = answerFor(turn);
    const model = turn.model;
    const out =
      protocol === 'chat'
        ? renderChat(answer, model, turn.stream)
        : protocol === 'responses'
          ? renderResponses(answer, model, turn.stream, turn.wantsThinking)
          : protocol === 'messages'
            ? renderMessages(answer, model, turn.stream, turn.wantsThinking)
            : renderGemini(answer, model, turn.stream, turn.wantsThinking);
    res.writeHead(200, {
      'content-type': out.type,
      'cache-control': 'no-cache',
      'x-request-id': `req_compat_${this.requests.length}`,
    });
    for (const chunk of out.chunks) res.write(chunk);
    res.end();
  }
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
