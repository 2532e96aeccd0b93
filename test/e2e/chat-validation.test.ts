// Every rule of the seed's request tables answers 400 in the envelope, naming the field — before anything is sent upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let key: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 1);
  key = user.key;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});

const valid = { model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false };
const tool = {
  type: 'function',
  function: { name: 'f', description: 'd', parameters: { type: 'object', properties: {} } },
};

const cases: [string, Record<string, unknown>, string][] = [
  ['model is required', { ...valid, model: undefined }, 'model'],
  ['model must be a string', { ...valid, model: 42 }, 'model'],
  ['messages is required', { ...valid, messages: undefined }, 'messages'],
  ['messages must be non-empty', { ...valid, messages: [] }, 'messages'],
  [
    'messages must hold at least one user message',
    { ...valid, messages: [{ role: 'system', content: 'be brief' }] },
    'messages',
  ],
  ['role must be one of the four', { ...valid, messages: [{ role: 'wizard', content: 'x' }] }, 'messages[0]'],
  ['content must be a string or parts', { ...valid, messages: [{ role: 'user', content: 5 }] }, 'messages[0]'],
  ['a text part needs text', { ...valid, messages: [{ role: 'user', content: [{ type: 'text' }] }] }, 'messages[0]'],
  [
    'an image part needs image_url.url',
    { ...valid, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] },
    'messages[0]',
  ],
  [
    'a tool message needs tool_call_id',
    {
      ...valid,
      messages: [
        { role: 'user', content: 'x' },
        { role: 'tool', content: 'r' },
      ],
    },
    'messages[1]',
  ],
  ['stream must be boolean', { ...valid, stream: 'yes' }, 'stream'],
  ['temperature must be >= 0', { ...valid, temperature: -0.1 }, 'temperature'],
  ['temperature must be <= 2', { ...valid, temperature: 2.5 }, 'temperature'],
  ['temperature must be a number', { ...valid, temperature: 'hot' }, 'temperature'],
  ['tools must be an array', { ...valid, tools: {} }, 'tools'],
  ['tool type must be function', { ...valid, tools: [{ ...tool, type: 'retrieval' }] }, 'tools[0]'],
  [
    'tool function needs a name',
    { ...valid, tools: [{ type: 'function', function: { description: 'd' } }] },
    'tools[0]',
  ],
  ['top_p must be <= 1', { ...valid, top_p: 1.5 }, 'top_p'],
  ['max_tokens must be >= 1', { ...valid, max_tokens: 0 }, 'max_tokens'],
];

describe('chat request validation', () => {
  it.each(cases)('%s → 400', async (_name, payload, field) => {
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    expect(res.status).toBe(400);
    const body: any = await res.json();
    expect(body.error.code).toBe(400);
    expect(body.error.message).toBeTypeOf('string');
    expect(String(body.error.metadata.field)).toContain(field);
    expect(upstream.requests).toHaveLength(0);
  });

  it('accepts unknown extra top-level fields that clients send (vendor extensions)', async () => {
    upstream.reply({
      kind: 'json',
      body: {
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
    });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...valid,
        usage: { include: true },
        provider: { order: ['x'] },
        transforms: [],
        some_future_field: 1,
      }),
    });
    expect(res.status).toBe(200);
    upstream.reset();
  });
});
