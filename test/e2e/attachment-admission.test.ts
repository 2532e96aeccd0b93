// Attachments in the admission bound, over HTTP on every door: a PDF counts its pages and an image its size, so a
// request the balance cannot cover is refused (402, or 400 over the context window) before any upstream call, while
// a small image still goes through.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { dataUrl, pdf, png } from '../helpers/attachments.js';

// openai/gpt-test (test catalog): $2 in, $8 out per 1M tokens, 128,000-token context, takes images and PDFs.
const MODEL = 'openai/gpt-test';
const BALANCE_USD = 0.02;

let gw: TestGateway;
let upstream: MockUpstream;
// A 4 MB, 30-page PDF: 90,000 prompt tokens (3,000 a page) → about $0.18, against the old flat 1,000 tokens ($0.002).
let bigPdf: Buffer;

const completion = {
  id: 'chatcmpl-att',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 300, completion_tokens: 2, total_tokens: 302 },
};

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  bigPdf = pdf({ pages: 30, sizeBytes: 4_000_000 });
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.reset();
  // Were a request admitted, it would get an answer (the point is that none is).
  upstream.always({ kind: 'json', body: completion });
});

async function userWithBalance() {
  const user = await gw.createUser();
  await gw.grant(user.userId, BALANCE_USD);
  return user;
}

function post(path: string, key: string, body: unknown) {
  return gw.fetch(path, {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const chat = (key: string, parts: unknown[]) =>
  post('/api/v1/chat/completions', key, {
    model: MODEL,
    stream: false,
    max_tokens: 100,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise this.' }, ...parts] }],
  });

describe('attachments in the admission bound', () => {
  it('chat: a 4 MB PDF the balance cannot cover is 402, and the upstream is never called', async () => {
    expect(bigPdf.length).toBeGreaterThanOrEqual(3_900_000);
    const user = await userWithBalance();
    const res = await chat(user.key, [
      { type: 'file', file: { filename: 'report.pdf', file_data: dataUrl('application/pdf', bigPdf) } },
    ]);
    expect(res.status).toBe(402);
    const body: any = await res.json();
    expect(body.error.metadata.required).toBeGreaterThan(BALANCE_USD);
    expect(body.error.metadata.available).toBeCloseTo(BALANCE_USD, 9);
    expect(upstream.requests).toHaveLength(0);
  });

  it('chat: a small image still passes', async () => {
    const user = await userWithBalance();
    const res = await chat(user.key, [{ type: 'image_url', image_url: { url: dataUrl('image/png', png(64, 64)) } }]);
    expect(res.status).toBe(200);
    await res.json();
    expect(upstream.requests).toHaveLength(1);
  });

  it('chat: a PDF whose pages cannot be read counts a token per byte: over the context window, 400 before any call', async () => {
    const user = await userWithBalance();
    const unreadable = Buffer.alloc(1_000_000, 0x41);
    const res = await chat(user.key, [
      { type: 'file', file: { filename: 'scan.pdf', file_data: dataUrl('application/pdf', unreadable) } },
    ]);
    expect(res.status).toBe(400);
    const body: any = await res.json();
    expect(body.error.metadata).toMatchObject({ reason: 'context_length_exceeded', context_length: 128_000 });
    expect(body.error.metadata.estimated_prompt_tokens).toBeGreaterThan(1_000_000);
    expect(upstream.requests).toHaveLength(0);
  });

  it("messages: a 4 MB PDF document block is 402 in Anthropic's error shape, before any upstream call", async () => {
    const user = await userWithBalance();
    const res = await post('/api/v1/messages', user.key, {
      model: MODEL,
      max_tokens: 100,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'document',
              source: { type: 'base64', media_type: 'application/pdf', data: bigPdf.toString('base64') },
            },
            { type: 'text', text: 'Summarise this.' },
          ],
        },
      ],
    });
    expect(res.status).toBe(402);
    const body: any = await res.json();
    expect(body.type).toBe('error');
    expect(body.error.message).toMatch(/Insufficient credits/);
    expect(upstream.requests).toHaveLength(0);
  });

  it('responses: an input_image is counted by the size in its header (8000 × 8000 px: 31,218 tokens), not 1,000', async () => {
    const user = await userWithBalance();
    const res = await post('/api/v1/responses', user.key, {
      model: MODEL,
      max_output_tokens: 100,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: dataUrl('image/png', png(8000, 8000)) },
          ],
        },
      ],
    });
    expect(res.status).toBe(402);
    await res.json();
    expect(upstream.requests).toHaveLength(0);
  });
});
