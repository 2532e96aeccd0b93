// An upstream that echoes the gateway's own credential in its error ("invalid x-api-key: <key>") must never deliver it
// to the client: on every door (chat, messages, responses), for every upstream kind, as a JSON error, an error inside a
// 2xx body, or an error event in a stream. The keys here have no recognisable prefix (not `sk-`), so only the
// configured values can tell them apart. The raw response, headers included, is searched.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, type Reply } from '../helpers/mock-upstream.js';

const OPENAI_KEY = 'k9ZqT4mWv8Lr2Xy6Pn3Bd7Hs';
const ANTHROPIC_KEY = 'Qw7Er5Ty3Ui1Op9As8Df6Gh4';
const GEMINI_KEY = 'Zx2Cv4Bn6Mm8Lk0Jh1Gf3Ds5';
const METRICS_TOKEN = 'Mt9Nb8Vc7Xz6Lk5Jh4Gf3Ds2';
const SECRETS = [OPENAI_KEY, ANTHROPIC_KEY, GEMINI_KEY, METRICS_TOKEN];
/** What a careless upstream (or a proxy in front of it) says back: the credential it got, and another secret. */
const ECHO = `invalid header x-api-key: ${OPENAI_KEY} ${ANTHROPIC_KEY} ${GEMINI_KEY} (metrics ${METRICS_TOKEN})`;

let gw: TestGateway;
let upstream: MockUpstream;
let user: { key: string; userId: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: OPENAI_KEY,
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: GEMINI_KEY,
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
      MODELGATE_METRICS_TOKEN: METRICS_TOKEN,
      MODELGATE_ROUTE_MAX_ATTEMPTS: '1',
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 20);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

type Kind = 'openai' | 'anthropic' | 'gemini';
const MODEL: Record<Kind, string> = {
  openai: 'openai/gpt-5.4-mini',
  anthropic: 'anthropic/claude-haiku-5-5',
  gemini: 'google/gemini-2.5-flash',
};

/** A 400 answer in the vendor's own error shape, its message echoing the secrets. */
function rejection(kind: Kind): Reply {
  if (kind === 'anthropic')
    return {
      kind: 'json',
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: ECHO } },
    };
  if (kind === 'gemini')
    return { kind: 'json', status: 400, body: { error: { code: 400, message: ECHO, status: 'INVALID_ARGUMENT' } } };
  return {
    kind: 'json',
    status: 400,
    body: { error: { message: ECHO, type: 'invalid_request_error', code: OPENAI_KEY } },
  };
}

/**
 * A stream that starts, then fails with an error event echoing the secrets (the vendors' recorded mid-stream errors;
 * OpenAI's Responses API, which the Responses door speaks natively to OpenAI, has its own `error` event).
 */
function midStreamFailure(kind: Kind, door: keyof typeof DOORS = 'chat'): Reply {
  const file =
    door === 'responses' && kind === 'openai' ? 'openai/native-responses-mid-stream-error' : `${kind}/mid-stream-error`;
  const recorded = readFileSync(new URL(`../fixtures/${file}.chunks.txt`, import.meta.url), 'utf8');
  const echoed = recorded.replace(/"message": ?"[^"]*"/, `"message":"${ECHO}"`);
  expect(echoed).toContain(OPENAI_KEY);
  const cut = echoed.lastIndexOf('data: {');
  return { kind: 'sse', chunks: [echoed.slice(0, cut), { pauseMs: 50 }, echoed.slice(cut)] };
}

const DOORS = {
  chat: (model: string, stream: boolean) => ({
    path: '/api/v1/chat/completions',
    body: { model, stream, messages: [{ role: 'user', content: 'hi' }] },
  }),
  messages: (model: string, stream: boolean) => ({
    path: '/api/v1/messages',
    body: { model, stream, max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] },
  }),
  responses: (model: string, stream: boolean) => ({ path: '/api/v1/responses', body: { model, stream, input: 'hi' } }),
};

/** The whole answer as bytes: status line, headers and body. */
async function rawAnswer(
  door: keyof typeof DOORS,
  kind: Kind,
  stream: boolean,
): Promise<{ status: number; raw: string }> {
  const { path, body } = DOORS[door](MODEL[kind], stream);
  const res = await gw.fetch(path, {
    method: 'POST',
    key: user.key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const headers = [...res.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  return { status: res.status, raw: `${res.status}\n${headers}\n\n${await res.text()}` };
}

function expectNoSecret(raw: string): void {
  for (const secret of SECRETS) expect(raw).not.toContain(secret);
}

const matrix = (['chat', 'messages', 'responses'] as const).flatMap((door) =>
  (['openai', 'anthropic', 'gemini'] as const).map((kind) => [door, kind] as const),
);

describe('configured credentials never reach a client', () => {
  it.each(matrix)('%s door, %s upstream: a 400 echoing the key (JSON and stream requests)', async (door, kind) => {
    for (const stream of [false, true]) {
      upstream.reply(rejection(kind));
      const { status, raw } = await rawAnswer(door, kind, stream);
      expect(status).toBe(400);
      expectNoSecret(raw);
      // The vendor's message itself still comes through, with the values cut out.
      expect(raw).toContain('invalid header x-api-key: [redacted]');
    }
  });

  it.each(matrix)('%s door, %s upstream: an error event mid-stream echoing the key', async (door, kind) => {
    upstream.reply(midStreamFailure(kind, door));
    const { status, raw } = await rawAnswer(door, kind, true);
    expect(status).toBe(200);
    expectNoSecret(raw);
    expect(raw).toContain('[redacted]');
  });

  it('an error object inside a 200 JSON body (OpenAI-compatible)', async () => {
    upstream.reply({ kind: 'json', status: 200, body: { error: { message: ECHO, code: 400 } } });
    const { status, raw } = await rawAnswer('chat', 'openai', false);
    expect(status).toBe(400);
    expectNoSecret(raw);
    expect(raw).toContain('[redacted]');
  });

  it('the generation record keeps no secret either', async () => {
    upstream.reply(midStreamFailure('openai'));
    await rawAnswer('chat', 'openai', true);
    await gw.settled();
    const rows = await gw.db.selectFrom('generations').selectAll().execute();
    expectNoSecret(JSON.stringify(rows, (_key, value) => (typeof value === 'bigint' ? String(value) : value)));
  });
});
