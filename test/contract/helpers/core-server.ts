// A small, independent implementation of the seed API's core routes only (chat completions JSON + SSE, API keys
// list/create/delete, bearer auth), standing in for "another implementation" of the gateway API: no /models, no
// credits, none of Modelgate's extensions. Faults can be planted one by one to show each is reported under the check
// named for it and nothing else. Requests are validated with the kit's own Ajv view of the document, so what the
// kit calls invalid is exactly what this server rejects.
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { loadDocument } from '../../../src/conformance/openapi-document.js';
import { createSchemaValidator } from '../../../src/conformance/schema-validator.js';

export interface CoreServerFaults {
  /** Wrong status code: deleting an unknown key answers 410 (undocumented) instead of 404. */
  goneInsteadOfNotFound?: boolean;
  /** 405 answers carry no Allow header. */
  noAllowHeader?: boolean;
  /** Malformed SSE: the first chunk of a stream carries no role. */
  streamWithoutRole?: boolean;
  /** Schema violation: listed keys have `created_at` as epoch milliseconds instead of a date-time string. */
  numericCreatedAt?: boolean;
  /** Junk input (a body that is not JSON) on POST /chat/completions crashes the handler: 500. */
  serverErrorOnJunk?: boolean;
  /** The mid-stream error chunk has finish_reason "error" but no `error` object. */
  bareErrorChunk?: boolean;
}

/** A user message that makes a streamed answer fail mid-way (the server's documented test hook). */
export const CORE_SERVER_TRIGGER = 'core-server: fail mid-stream';

export interface CoreServer {
  /** Origin; the API root is `${url}/api/v1`. */
  url: string;
  apiKey: string;
  close(): Promise<void>;
}

interface StoredKey {
  id: string;
  secret: string;
  name: string;
  createdAt: Date;
  live: boolean;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const doc = await loadDocument();
const validator = createSchemaValidator(doc);
const ROUTES: Record<string, string[]> = {
  '/chat/completions': ['POST'],
  '/api-keys': ['GET', 'POST'],
  '/api-keys/{key_id}': ['DELETE'],
};

export async function startCoreServer(faults: CoreServerFaults = {}): Promise<CoreServer> {
  const keys = new Map<string, StoredKey>();
  const issue = (name: string): StoredKey => {
    const key = {
      id: `key_${randomBytes(6).toString('hex')}`,
      secret: `core-${randomBytes(18).toString('hex')}`,
      name,
      createdAt: new Date(),
      live: true,
    };
    keys.set(key.id, key);
    return key;
  };
  const main = issue('main');
  let requests = 0;

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const requestId = `req_${++requests}`;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': requestId, ...headers });
      res.end(JSON.stringify(body));
    };
    try {
      const url = new URL(req.url ?? '/', 'http://core');
      const method = req.method ?? 'GET';
      const route = routeOf(url.pathname);
      if (!route) throw new HttpError(404, `No such endpoint: ${method} ${url.pathname}`);
      if (!ROUTES[route.template].includes(method)) {
        throw new HttpError(
          405,
          `Method ${method} is not allowed`,
          faults.noAllowHeader ? {} : { allow: ROUTES[route.template].join(', ') },
        );
      }
      const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      const caller = [...keys.values()].find((k) => k.live && k.secret === bearer);
      if (!caller) throw new HttpError(401, 'Missing or invalid credential');
      if (route.template === '/api-keys' && method === 'GET') {
        const data = [...keys.values()]
          .filter((k) => k.live)
          .map((k) => ({
            ...view(k),
            created_at: faults.numericCreatedAt ? k.createdAt.getTime() : k.createdAt.toISOString(),
          }));
        return send(200, { data });
      }
      if (route.template === '/api-keys/{key_id}') {
        const key = keys.get(route.id!);
        if (!key?.live) throw new HttpError(faults.goneInsteadOfNotFound ? 410 : 404, 'No such key');
        key.live = false;
        return send(200, { deleted: true, key_id: key.id });
      }
      const body = parseBody(
        req.headers['content-type'],
        raw,
        route.template === '/chat/completions' && faults.serverErrorOnJunk,
      );
      if (route.template === '/api-keys') {
        const problem = validator.validate('#/components/schemas/CreateApiKeyRequest', body);
        if (!problem.valid) throw new HttpError(400, problem.errors.join('; '));
        const key = issue((body as { name?: string }).name ?? 'API key');
        return send(201, { ...view(key), created_at: key.createdAt.toISOString(), key: key.secret });
      }
      const problem = validator.validate('#/components/schemas/ChatCompletionRequest', body);
      if (!problem.valid) throw new HttpError(400, problem.errors.join('; '));
      const chat = body as { model: string; stream?: boolean; messages: unknown[] };
      const accept = req.headers.accept ?? '';
      const stream = chat.stream ?? !(accept.includes('application/json') && !accept.includes('text/event-stream'));
      const completion = { id: `gen-${requestId}`, created: 1_760_000_000, model: chat.model };
      const usage = { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 };
      if (!stream) {
        return send(200, {
          ...completion,
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there' }, finish_reason: 'stop' }],
          usage,
        });
      }
      const chunk = (choice: object, extra: object = {}) =>
        `data: ${JSON.stringify({ ...completion, object: 'chat.completion.chunk', choices: [{ index: 0, ...choice }], ...extra })}\n\n`;
      const fail = JSON.stringify(chat.messages).includes(CORE_SERVER_TRIGGER);
      const last = fail
        ? chunk(
            {
              delta: {},
              finish_reason: 'error',
              ...(faults.bareErrorChunk ? {} : { error: { code: 'server_error', message: 'generation failed' } }),
            },
            { usage },
          )
        : chunk({ delta: {}, finish_reason: 'stop' }, { usage });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': requestId });
      res.end(
        `${chunk({ delta: faults.streamWithoutRole ? { content: '' } : { role: 'assistant', content: '' }, finish_reason: null })}${chunk({ delta: { content: 'Hi there' }, finish_reason: null })}${last}data: [DONE]\n\n`,
      );
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      send(
        status,
        {
          error: {
            code: status,
            message: err instanceof HttpError ? err.message : 'Internal server error',
            metadata: { request_id: requestId },
          },
        },
        err instanceof HttpError ? err.headers : {},
      );
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    apiKey: main.secret,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function routeOf(pathname: string): { template: string; id?: string } | undefined {
  const path = pathname.replace(/^\/api\/v1(?=\/)/, '');
  if (path === pathname) return undefined;
  if (path === '/chat/completions' || path === '/api-keys') return { template: path };
  const id = /^\/api-keys\/([^/]+)$/.exec(path)?.[1];
  return id ? { template: '/api-keys/{key_id}', id: decodeURIComponent(id) } : undefined;
}

function parseBody(contentType: string | undefined, raw: string, crashOnJunk: boolean | undefined): unknown {
  if (raw === '') throw new HttpError(400, 'A JSON body is required');
  if (!(contentType ?? '').toLowerCase().startsWith('application/json'))
    throw new HttpError(400, 'Content-Type must be application/json');
  try {
    return JSON.parse(raw);
  } catch {
    if (crashOnJunk) throw new Error('unparseable body');
    throw new HttpError(400, 'The body is not valid JSON');
  }
}

function view(key: StoredKey) {
  return { key_id: key.id, name: key.name, prefix: key.secret.slice(0, 9), last_used_at: null };
}
