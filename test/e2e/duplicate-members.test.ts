// A body that writes one member name twice in an object is refused with 400 on every door, in the door's own error
// shape, before anything goes upstream. JSON.parse keeps the last copy while a native lane forwards the bytes as they
// came: the Gemini lane checked `"generationConfig":{"candidateCount":1}` and sent `{"candidateCount":8}` on too, and a
// second `tools` member escaped the search fee reservation. Nested repeats (`"max_uses":1,"max_uses":50`) count too.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let user: { userId: string; key: string };
let token: string;

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: upstream.url,
      GEMINI_API_KEY: 'AIzaTest',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
    },
  });
  user = await gw.createUser();
  await gw.grant(user.userId, 10);
  token = await gw.createToken(user.userId);
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

type Shape = 'gateway' | 'anthropic' | 'google';
interface Door {
  name: string;
  path: string;
  shape: Shape;
  /** The body with `extra` spliced in as its first members. */
  body: (extra: string) => string;
  credential?: 'token';
}

const chatMessages = '"messages":[{"role":"user","content":"hi"}]';
const gemini = '"contents":[{"role":"user","parts":[{"text":"hi"}]}]';
const search = (uses: string) => `"tools":[{"type":"web_search_20250305","name":"web_search",${uses}}]`;

const doors: Door[] = [
  {
    name: 'chat completions',
    path: '/api/v1/chat/completions',
    shape: 'gateway',
    body: (x) => `{${x}"model":"openai/gpt-5.4-mini","stream":false,${chatMessages}}`,
  },
  {
    name: 'Messages',
    path: '/api/v1/messages',
    shape: 'anthropic',
    body: (x) => `{${x}"model":"anthropic/claude-haiku-5-5","max_tokens":16,${chatMessages}}`,
  },
  {
    name: 'Messages count_tokens',
    path: '/api/v1/messages/count_tokens',
    shape: 'anthropic',
    body: (x) => `{${x}"model":"anthropic/claude-haiku-5-5",${chatMessages}}`,
  },
  {
    name: 'Responses',
    path: '/api/v1/responses',
    shape: 'gateway',
    body: (x) => `{${x}"model":"openai/gpt-5.4-mini","stream":false,"input":"hi"}`,
  },
  {
    name: 'Gemini generateContent',
    path: '/api/v1/gemini/v1beta/models/gemini-2.5-flash:generateContent',
    shape: 'google',
    body: (x) => `{${x}${gemini}}`,
  },
  {
    name: 'Gemini countTokens',
    path: '/api/v1/gemini/v1beta/models/gemini-2.5-flash:countTokens',
    shape: 'google',
    body: (x) => `{${x}${gemini}}`,
  },
  {
    name: 'embeddings',
    path: '/api/v1/embeddings',
    shape: 'gateway',
    body: (x) => `{${x}"model":"openai/text-embedding-3-small","input":"hi"}`,
  },
  {
    name: 'key creation (management)',
    path: '/api/v1/api-keys',
    shape: 'gateway',
    credential: 'token',
    body: (x) => `{${x}"name":"k"}`,
  },
];

async function send(door: Door, body: string): Promise<Response> {
  return gw.fetch(door.path, {
    method: 'POST',
    key: door.credential === 'token' ? token : user.key,
    headers: { 'content-type': 'application/json' },
    body,
  });
}

function expectRefusal(shape: Shape, json: any, field: string): void {
  const message = expect.stringContaining(`${field} appears more than once`);
  if (shape === 'anthropic') {
    expect(json).toEqual({ type: 'error', error: { type: 'invalid_request_error', message } });
  } else if (shape === 'google') {
    expect(json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message });
    expect(json.error.details[0]).toMatchObject({ reason: 'duplicate_member_name', metadata: { field } });
  } else {
    expect(json.error).toMatchObject({ code: 400, message, metadata: { reason: 'duplicate_member_name', field } });
  }
}

describe('duplicate member names', () => {
  it.each(doors)(
    "$name: a repeated top-level member is 400 in the door's shape, nothing sent upstream",
    async (door) => {
      const res = await send(door, door.body('"user":"a","user":"b",'));
      expect(res.status).toBe(400);
      expectRefusal(door.shape, await res.json(), 'user');
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it.each(doors)('$name: a repeat nested in an array element is refused and named by its path', async (door) => {
    const res = await send(door, door.body(`"metadata_probe":[0,{"a":{"max_uses":1,"max_uses":50}}],`));
    expect(res.status).toBe(400);
    expectRefusal(door.shape, await res.json(), 'metadata_probe[1].a.max_uses');
    expect(upstream.requests).toHaveLength(0);
  });

  it('the Gemini native lane: two generationConfig members are refused, not forwarded byte for byte', async () => {
    const door = doors.find((d) => d.name === 'Gemini generateContent')!;
    const res = await send(
      door,
      door.body('"generationConfig":{"candidateCount":8},"generationConfig":{"candidateCount":1},'),
    );
    expect(res.status).toBe(400);
    expectRefusal('google', await res.json(), 'generationConfig');
    expect(upstream.requests).toHaveLength(0);
  });

  it('Messages: a second tools member (or a second max_uses) cannot slip a search tool past the fee reservation', async () => {
    const door = doors.find((d) => d.name === 'Messages')!;
    const twoTools = await send(door, door.body(`${search('"max_uses":50')},"tools":[],`));
    expect(twoTools.status).toBe(400);
    expectRefusal('anthropic', await twoTools.json(), 'tools');
    const twoUses = await send(door, door.body(`${search('"max_uses":1,"max_uses":50')},`));
    expect(twoUses.status).toBe(400);
    expectRefusal('anthropic', await twoUses.json(), 'tools[0].max_uses');
    expect(upstream.requests).toHaveLength(0);
  });

  it('names written with escapes count as the names they decode to; the same name in sibling objects is fine', async () => {
    const door = doors[0]!;
    const escaped = await send(door, door.body('"user":"a","\\u0075ser":"b",'));
    expect(escaped.status).toBe(400);
    expectRefusal('gateway', await escaped.json(), 'user');
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
    const siblings = `{"model":"openai/gpt-5.4-mini","stream":false,"messages":[{"role":"user","content":"a \\":\\" b"},{"role":"assistant","content":"c"},{"role":"user" , "content" : "d"}]}`;
    const ok = await send(door, siblings);
    expect(ok.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });
});
