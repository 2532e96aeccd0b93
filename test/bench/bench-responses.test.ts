// The bench's Responses and Messages requests and its routed request end to end: the bench mock upstream as a real
// process, the gateway in-process in front of it on the bench catalog; the smoke checks accept each door's stream of
// the mock's reply and reject a failed one; the c=1 probe reads each door's stamped stream and the routed request.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProcessGroup, freePort, waitForPort } from '../../bench/lib/processes.js';
import {
  GATEWAY_MODEL,
  messagesStreamBody,
  messagesUrl,
  responsesStreamBody,
  responsesUrl,
  routedChatBody,
  ROUTED_PROVIDER_ORDER,
  variantRequest,
} from '../../bench/lib/requests.js';
import {
  checkDoorStream,
  checkRoutedCompletion,
  MESSAGES_STREAM,
  RESPONSES_STREAM,
} from '../../bench/lib/front-door-smoke.js';
import { runProbe } from '../../bench/lib/probe.js';
import { gatewayEnv } from '../../bench/lib/systems.js';
import { COMPLETION_TOKENS } from '../../bench/mock-replies.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const group = new ProcessGroup();
let gw: TestGateway;
let key: string;
let mockUrl = '';

beforeAll(async () => {
  const port = await freePort();
  const child = group.start('mock', process.execPath, ['--import', 'tsx', 'bench/mock-upstream.ts', String(port)], {
    env: process.env,
    logFile: path.join(mkdtempSync(path.join(tmpdir(), 'bench-responses-')), 'mock.log'),
  });
  await waitForPort(port, child, 'mock', 20_000);
  mockUrl = `http://127.0.0.1:${port}`;
  // The benchmark's own catalog and provider settings (every provider on the mock); not its database or limits.
  const { MODELGATE_CATALOG, ...bench } = gatewayEnv(
    { repoRoot: process.cwd(), distDir: 'dist', runDir: tmpdir() },
    'unused',
    `http://127.0.0.1:${port}/v1`,
  );
  const providers = Object.fromEntries(
    Object.entries(bench).filter(([name]) => /_(API_KEY|BASE_URL)$/.test(name)),
  ) as Record<string, string>;
  gw = await startTestGateway({ env: { MODELGATE_CATALOG: MODELGATE_CATALOG!, ...providers } });
  const user = await gw.createUser();
  await gw.grant(user.userId, 5);
  key = user.key;
}, 60_000);
afterAll(async () => {
  await gw?.close();
  await group.stopAll();
});

describe('bench: /responses streaming request', () => {
  it('targets the gateway route next to chat completions, and streams every word of the mock', async () => {
    const url = responsesUrl(`${gw.url}/api/v1/chat/completions`);
    expect(url).toBe(`${gw.url}/api/v1/responses`);
    await expect(
      checkDoorStream(url, { authorization: `Bearer ${key}` }, responsesStreamBody(GATEWAY_MODEL), RESPONSES_STREAM),
    ).resolves.toBeUndefined();
  });

  it('rejects an HTTP error, and a 200 stream that is not a whole Responses stream', async () => {
    await expect(
      checkDoorStream(
        `${gw.url}/api/v1/responses`,
        { authorization: 'Bearer mg-v1-wrong' },
        responsesStreamBody(GATEWAY_MODEL),
        RESPONSES_STREAM,
      ),
    ).rejects.toThrow(/HTTP 401/);
    // The mock's own chat-completions stream: HTTP 200, but no response.* events.
    const chat = JSON.stringify({ model: 'gpt-test-2026', messages: [{ role: 'user', content: 'hi' }], stream: true });
    await expect(checkDoorStream(`${mockUrl}/v1/chat/completions`, {}, chat, RESPONSES_STREAM)).rejects.toThrow(
      /0\/\d+ text deltas, last event none/,
    );
  });
});

describe('bench: /messages streaming request', () => {
  it('targets the gateway route next to chat completions, and streams every word of the mock as Anthropic events', async () => {
    const url = messagesUrl(`${gw.url}/api/v1/chat/completions`);
    expect(url).toBe(`${gw.url}/api/v1/messages`);
    await expect(
      checkDoorStream(url, { authorization: `Bearer ${key}` }, messagesStreamBody(GATEWAY_MODEL), MESSAGES_STREAM),
    ).resolves.toBeUndefined();
  });

  it('rejects an HTTP error, and a whole Responses stream where a Messages stream is expected', async () => {
    await expect(
      checkDoorStream(
        `${gw.url}/api/v1/messages`,
        { authorization: 'Bearer mg-v1-wrong' },
        messagesStreamBody(GATEWAY_MODEL),
        MESSAGES_STREAM,
      ),
    ).rejects.toThrow(/HTTP 401/);
    const responses = responsesUrl(`${gw.url}/api/v1/chat/completions`);
    await expect(
      checkDoorStream(
        responses,
        { authorization: `Bearer ${key}` },
        responsesStreamBody(GATEWAY_MODEL),
        MESSAGES_STREAM,
      ),
    ).rejects.toThrow(/0\/\d+ text deltas, last event response.completed/);
  });
});

describe('bench: c=1 probe of the front doors and of the routed request', () => {
  const gatewayChat = () => `${gw.url}/api/v1/chat/completions`;

  it.each(['messages', 'responses'] as const)(
    "reads the stamped chunks of a paced stream through POST /%s as the door's content events",
    async (variant) => {
      const { url, body, format } = variantRequest(variant, gatewayChat(), { probePaceMs: 2 });
      const summary = await runProbe({
        target: { url, headers: { authorization: `Bearer ${key}` } },
        body,
        stream: true,
        format,
        warmupRequests: 0,
        maxRequests: 2,
        seconds: 20,
      });
      expect(summary.firstFailure).toBeUndefined();
      expect(summary.requests).toBe(2);
      // Stamps reach the probe only if the marker reached the mock through the door and the probe read the door's events.
      expect(summary.firstChunkDelay).toBeDefined();
      expect(summary.chunkDelay).toBeDefined();
      expect(summary.firstChunk!.p50).toBeLessThan(summary.latency!.p50);
    },
  );

  it("fails a door's stream read as chat chunks (no content, no [DONE]), so a wrong reader cannot pass unnoticed", async () => {
    const { url, body } = variantRequest('messages', gatewayChat(), { probePaceMs: 0 });
    const summary = await runProbe({
      target: { url, headers: { authorization: `Bearer ${key}` } },
      body,
      stream: true,
      warmupRequests: 0,
      maxRequests: 1,
      seconds: 20,
    });
    expect(summary.failures).toBe(1);
    expect(summary.firstFailure).toBe(`stream ended with 0/${COMPLETION_TOKENS} content chunks and no [DONE]`);
  });

  it('serves the routed request from the first endpoint of provider.order, and the probe times it', async () => {
    const headers = { authorization: `Bearer ${key}` };
    await expect(
      checkRoutedCompletion(gatewayChat(), headers, routedChatBody('json'), ROUTED_PROVIDER_ORDER[0]),
    ).resolves.toBeUndefined();
    // Without the order the cheapest endpoint (alpha) serves: the check tells the two apart.
    await expect(checkRoutedCompletion(gatewayChat(), headers, routedChatBody('json'), 'alpha')).rejects.toThrow(
      /served by gamma, expected alpha/,
    );
    const { url, body, format } = variantRequest('routed', gatewayChat());
    expect(format).toBe('chat');
    const summary = await runProbe({
      target: { url, headers },
      body,
      stream: false,
      warmupRequests: 0,
      maxRequests: 3,
      seconds: 20,
    });
    expect(summary).toMatchObject({ requests: 3, failures: 0 });
  });
});
