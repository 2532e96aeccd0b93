// A body nested 100,000 levels deep (tool parameters, response_format, /messages tools, count_tokens, /responses)
// answered 500 (a stack overflow past JSON.parse). It is 400 in the door's envelope now, nothing goes upstream, and
// the process answers the next request as before; nothing is logged at error level.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { MAX_JSON_DEPTH } from '../../src/http/json-depth.js';

const DEPTH = 100_000;
let gw: TestGateway;
let upstream: MockUpstream;
let user: { key: string; userId: string };

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 5);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

/** `{"type":"object","properties":{"a": ... }}` `levels` schema levels deep, as text (JSON.stringify would overflow). */
function deepSchema(levels: number): string {
  return `${'{"type":"object","properties":{"a":'.repeat(levels)}{"type":"string"}${'}}'.repeat(levels)}`;
}

const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const hello = '[{"role":"user","content":"hi"}]';

const cases: [string, string, string, 'chat' | 'messages'][] = [
  [
    'chat tool parameters',
    '/api/v1/chat/completions',
    `{"model":"openai/gpt-test","stream":false,"messages":${hello},"tools":[{"type":"function","function":{"name":"f","parameters":${deepSchema(DEPTH / 2)}}}]}`,
    'chat',
  ],
  [
    'chat response_format',
    '/api/v1/chat/completions',
    `{"model":"openai/gpt-test","stream":false,"messages":${hello},"response_format":{"type":"json_schema","json_schema":{"name":"s","schema":${deepSchema(DEPTH / 2)}}}}`,
    'chat',
  ],
  [
    '/messages tools',
    '/api/v1/messages',
    `{"model":"openai/gpt-test","max_tokens":10,"messages":${hello},"tools":[{"name":"f","input_schema":${deepSchema(DEPTH / 2)}}]}`,
    'messages',
  ],
  [
    '/messages/count_tokens',
    '/api/v1/messages/count_tokens',
    `{"model":"openai/gpt-test","messages":${hello},"tools":[{"name":"f","input_schema":${deepSchema(DEPTH / 2)}}]}`,
    'messages',
  ],
  [
    '/responses',
    '/api/v1/responses',
    `{"model":"openai/gpt-test","input":"hi","tools":[{"type":"function","name":"f","parameters":${deepSchema(DEPTH / 2)}}],"metadata_extra":${deepArray(DEPTH)}}`,
    'chat',
  ],
];

describe('JSON nested 100,000 deep', () => {
  it.each(cases)(
    "%s: 400 in the door's envelope, nothing sent upstream, the next request served",
    async (_name, path, body, door) => {
      const res = await gw.fetch(path, {
        method: 'POST',
        key: user.key,
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(400);
      const json = (await res.json()) as any;
      if (door === 'messages') {
        expect(json).toEqual({
          type: 'error',
          error: { type: 'invalid_request_error', message: expect.stringContaining(`deeper than ${MAX_JSON_DEPTH}`) },
        });
      } else {
        expect(json.error).toMatchObject({
          code: 400,
          metadata: { reason: 'nesting_too_deep', max_depth: MAX_JSON_DEPTH },
        });
      }
      expect(upstream.requests).toHaveLength(0);
      expect((await gw.fetch('/api/v1/key', { key: user.key })).status).toBe(200);
      expect(gw.logs.filter((line) => JSON.parse(line).level >= 50)).toEqual([]);
    },
  );

  it('a schema of ordinary depth (an MCP tool ~20 levels deep) still goes through', async () => {
    upstream.reply({
      kind: 'json',
      body: {
        id: 'x',
        object: 'chat.completion',
        created: 1,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      },
    });
    const body = `{"model":"openai/gpt-test","stream":false,"messages":${hello},"tools":[{"type":"function","function":{"name":"f","parameters":${deepSchema(20)}}}]}`;
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key: user.key,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });
});
