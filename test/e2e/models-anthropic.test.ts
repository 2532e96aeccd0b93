// GET /models in Anthropic's Models API shape (anthropic-version or x-api-key), through the real app and with the
// official @anthropic-ai/sdk: newest first, paged with limit / after_id / before_id as Anthropic documents them,
// models.retrieve(), errors in Anthropic's body. Without the Anthropic signals the listing stays the gateway's own.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

let gw: TestGateway;
let user: { key: string };
let client: Anthropic;

/** The fixture catalog newest first; the two models of 1750000000 in catalog order. */
const NEWEST_FIRST = [
  'anthropic/claude-newest-3',
  'openai/gpt-new',
  'anthropic/claude-mid-2',
  'openai/gpt-mid',
  'anthropic/claude-old-1',
];
const ANTHROPIC_VERSION = { 'anthropic-version': '2023-06-01' };

beforeAll(async () => {
  gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/discovery-catalog.json' } });
  user = await gw.createUser();
  client = new Anthropic({ apiKey: user.key, baseURL: `${gw.url}/api`, maxRetries: 0 });
});
afterAll(async () => {
  await gw?.close();
});

async function list(
  query: string,
  headers: Record<string, string> = { ...ANTHROPIC_VERSION, 'x-api-key': user.key },
): Promise<{ status: number; body: any }> {
  const res = await gw.fetch(`/api/v1/models${query}`, { headers });
  return { status: res.status, body: await res.json() };
}

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((m) => m.id);

describe('GET /models, Anthropic shape', () => {
  it('the SDK lists every catalog model newest first, auto-paging through pages of 2', async () => {
    const seen: Anthropic.ModelInfo[] = [];
    for await (const model of client.models.list({ limit: 2 })) seen.push(model);
    expect(seen.map((m) => m.id)).toEqual(NEWEST_FIRST);
    expect(seen[0]).toEqual({
      type: 'model',
      id: 'anthropic/claude-newest-3',
      display_name: 'Claude Newest 3',
      created_at: '2027-05-11T01:46:40Z',
      max_input_tokens: 1000000,
      max_tokens: 128000,
      capabilities: null,
      lifecycle: 'active',
      line: null,
      deprecated_at: null,
      retires_at: null,
    });
    // No max_output_tokens in the catalog: Anthropic's null.
    expect(seen.find((m) => m.id === 'openai/gpt-new')?.max_tokens).toBeNull();
  });

  it('one page: default limit 20, has_more false, first_id and last_id', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(ids(body)).toEqual(NEWEST_FIRST);
    expect(body).toMatchObject({ has_more: false, first_id: NEWEST_FIRST[0], last_id: NEWEST_FIRST[4] });
    expect(Object.keys(body).sort()).toEqual(['data', 'first_id', 'has_more', 'last_id']);
  });

  it('after_id pages forward; has_more says whether more follow', async () => {
    const first = await list('?limit=2');
    expect(first.body).toMatchObject({ has_more: true, first_id: NEWEST_FIRST[0], last_id: NEWEST_FIRST[1] });
    const second = await list(`?limit=2&after_id=${encodeURIComponent(first.body.last_id)}`);
    expect(ids(second.body)).toEqual(NEWEST_FIRST.slice(2, 4));
    expect(second.body.has_more).toBe(true);
    const third = await list(`?limit=2&after_id=${encodeURIComponent(second.body.last_id)}`);
    expect(third.body).toEqual({
      data: [expect.objectContaining({ id: NEWEST_FIRST[4] })],
      has_more: false,
      first_id: NEWEST_FIRST[4],
      last_id: NEWEST_FIRST[4],
    });
    const past = await list(`?after_id=${encodeURIComponent(NEWEST_FIRST[4])}`);
    expect(past.body).toEqual({ data: [], has_more: false, first_id: null, last_id: null });
  });

  it('before_id pages backward: the page right before it; has_more says whether more precede', async () => {
    const back = await list(`?limit=2&before_id=${encodeURIComponent(NEWEST_FIRST[4])}`);
    expect(ids(back.body)).toEqual(NEWEST_FIRST.slice(2, 4));
    expect(back.body.has_more).toBe(true);
    const further = await list(`?limit=2&before_id=${encodeURIComponent(back.body.first_id)}`);
    expect(ids(further.body)).toEqual(NEWEST_FIRST.slice(0, 2));
    expect(further.body.has_more).toBe(false);
    const shortPage = await list(`?limit=2&before_id=${encodeURIComponent(NEWEST_FIRST[1])}`);
    expect(ids(shortPage.body)).toEqual([NEWEST_FIRST[0]]);
    expect(shortPage.body.has_more).toBe(false);
  });

  it('the SDK pages backward from before_id until the first model', async () => {
    const seen: string[] = [];
    for await (const model of client.models.list({ limit: 2, before_id: NEWEST_FIRST[4] })) seen.push(model.id);
    expect(seen).toEqual([...NEWEST_FIRST.slice(2, 4), ...NEWEST_FIRST.slice(0, 2)]);
  });

  it('Bearer with anthropic-version (Claude Code with ANTHROPIC_AUTH_TOKEN) and x-api-key alone both choose the shape', async () => {
    const bearer = await list('?limit=1000', { ...ANTHROPIC_VERSION, authorization: `Bearer ${user.key}` });
    expect(bearer.status).toBe(200);
    expect(ids(bearer.body)).toEqual(NEWEST_FIRST);
    const apiKeyOnly = await list('', { 'x-api-key': user.key });
    expect(apiKeyOnly.status).toBe(200);
    expect(apiKeyOnly.body.data[0].type).toBe('model');
  });

  it("bad paging is a 400 in Anthropic's error body", async () => {
    for (const query of [
      '?limit=0',
      '?limit=1001',
      '?after_id=anthropic%2Fclaude-9',
      `?after_id=${encodeURIComponent(NEWEST_FIRST[0])}&before_id=${encodeURIComponent(NEWEST_FIRST[2])}`,
    ]) {
      const { status, body } = await list(query);
      expect({ query, status }).toEqual({ query, status: 400 });
      expect(body).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: expect.any(String) } });
    }
    const err = await client.models.list({ after_id: 'claude-9' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
  });

  it("a bad credential is a 401 in Anthropic's error body (the SDK raises AuthenticationError)", async () => {
    const { status, body } = await list('', { ...ANTHROPIC_VERSION, 'x-api-key': 'mg-v1-not-a-key' });
    expect(status).toBe(401);
    expect(body).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.any(String) } });
    const bad = new Anthropic({ apiKey: 'mg-v1-not-a-key', baseURL: `${gw.url}/api`, maxRetries: 0 });
    await expect(bad.models.list()).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it("the SDK's beta listing (?beta=true) answers the same", async () => {
    const seen: string[] = [];
    for await (const model of client.beta.models.list()) seen.push(model.id);
    expect(seen).toEqual(NEWEST_FIRST);
  });
});

describe('GET /models/{model_id}', () => {
  it('the SDK retrieves a model by its id (the "/" sent percent-encoded) and by a bare Claude name', async () => {
    const byId = await client.models.retrieve('anthropic/claude-mid-2');
    expect(byId).toMatchObject({
      type: 'model',
      id: 'anthropic/claude-mid-2',
      display_name: 'Claude Mid 2',
      max_tokens: 64000,
    });
    const bare = await client.models.retrieve('claude-mid-2-20260101');
    expect(bare.id).toBe('anthropic/claude-mid-2');
    const missing = await client.models.retrieve('claude-9').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('without the Anthropic signals: the model as GET /models lists it, unknown ids 404 in the gateway envelope', async () => {
    const res = await gw.fetch('/api/v1/models/openai%2Fgpt-mid', { key: user.key });
    expect(res.status).toBe(200);
    const listed: any = await (await gw.fetch('/api/v1/models', { key: user.key })).json();
    expect(await res.json()).toEqual(listed.data.find((m: { id: string }) => m.id === 'openai/gpt-mid'));
    const missing = await gw.fetch('/api/v1/models/claude-mid-2', { key: user.key });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as any).error.code).toBe(404);
  });
});

describe('GET /models without the Anthropic signals', () => {
  it("stays the gateway's own listing: every model in catalog order, paging parameters ignored", async () => {
    const res = await gw.fetch('/api/v1/models?limit=1', { key: user.key });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.map((m: { id: string }) => m.id)).toEqual([
      'anthropic/claude-old-1',
      'openai/gpt-new',
      'anthropic/claude-mid-2',
      'openai/gpt-mid',
      'anthropic/claude-newest-3',
    ]);
    expect(body.data[0]).toMatchObject({ name: 'Claude Old 1', created: 1700000000, context_length: 200000 });
  });

  it("errors keep the gateway envelope, and a model's endpoints listing keeps it even with anthropic-version", async () => {
    const unauthorized = await gw.fetch('/api/v1/models', { headers: { authorization: 'Bearer mg-v1-not-a-key' } });
    expect(unauthorized.status).toBe(401);
    expect(((await unauthorized.json()) as any).error.code).toBe(401);
    const endpoints = await gw.fetch('/api/v1/models/openai/gpt-9/endpoints', {
      key: user.key,
      headers: ANTHROPIC_VERSION,
    });
    expect(endpoints.status).toBe(404);
    expect(((await endpoints.json()) as any).error.code).toBe(404);
  });
});
