// The native Gemini lane's back door on recorded Google answers: the client's bytes go upstream untouched (model in the
// path, the operator's key), every chunk comes back as one `data:` line with only modelVersion and responseId the
// gateway's, and the meter reads Google's own usage, finish and generated text; errors and cut streams are failures.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nativeGemini } from '../../../src/providers/gemini/native-gemini.js';
import { createSseParser } from '../../../src/providers/sse/parse-sse.js';
import type { NativeAnswerContext, NativeReading } from '../../../src/providers/native/native-protocol.js';
import { geminiContext } from './helpers.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/gemini/${name}`, import.meta.url), 'utf8');
const provider = geminiContext().provider;
const ctx: NativeAnswerContext = {
  generationId: 'gen-native',
  model: 'google/gemini-3.1-pro-preview',
  upstreamModel: 'gemini-3.1-pro-preview',
  provider,
  redact: (text) => text.replaceAll(provider.apiKey!, '[redacted]'),
};

function replay(text: string) {
  const reader = nativeGemini.createStreamReader(ctx);
  const parser = createSseParser();
  const events = [...parser.push(text), ...parser.end()].map((event) => reader.read(event));
  events.push(reader.end());
  const readings: NativeReading[] = events.map((event) => event.reading);
  const sent = events
    .map((event) =>
      event.render(() => ({ usage: readings.find((r) => r.usage)!.usage!, costNanos: 0n, accessMode: 'credits' })),
    )
    .filter((t): t is string => t !== undefined);
  return { readings, sent };
}

describe('native Gemini: the request', () => {
  it("sends the client's bytes as they came to the upstream model's path, with the operator's key only", () => {
    const raw = Buffer.from(
      '{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"cachedContent":"cachedContents/abc","safetySettings":[],"newField":{"x":1}}',
    );
    const body = JSON.parse(raw.toString());
    const built = nativeGemini.buildRequest({
      wire: { raw, body, gatewayFields: ['models', 'provider'], clientHeaders: {} },
      provider,
      model: { id: 'google/gemini-3.1-pro-preview', upstreamModel: 'gemini-3.1-pro-preview', supportsReasoning: true },
      stream: true,
    });
    expect(built.request.url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent?alt=sse',
    );
    expect(built.request.headers).toMatchObject({
      'x-goog-api-key': provider.apiKey,
      'content-type': 'application/json',
    });
    expect(Buffer.from(built.request.body as Uint8Array).equals(raw)).toBe(true);
  });

  it("removes the gateway's routing fields, and only them", () => {
    const raw = Buffer.from('{"contents":[],"models":["google/gemini-2.5-flash"],"toolConfig":{}}');
    const built = nativeGemini.buildRequest({
      wire: { raw, body: JSON.parse(raw.toString()), gatewayFields: ['models', 'provider'], clientHeaders: {} },
      provider,
      model: { id: 'google/x', upstreamModel: 'x', supportsReasoning: false },
      stream: false,
    });
    expect(JSON.parse(Buffer.from(built.request.body as Uint8Array).toString())).toEqual({
      contents: [],
      toolConfig: {},
    });
    expect(built.request.url).toMatch(/\/models\/x:generateContent$/);
  });
});

describe('native Gemini: the answer', () => {
  it("streams each chunk as one data line, Google's parts and signatures untouched, the gateway's ids; meters usage and finish", () => {
    const { readings, sent } = replay(fixture('tool-call-gemini3.chunks.txt'));
    for (const text of sent) expect(text).toMatch(/^data: [^\n]+\n\n$/);
    const chunks = sent.map((text) => JSON.parse(text.slice(6)));
    expect(chunks[0].candidates[0].content.parts[0].thoughtSignature).toMatch(/^EpQCCpEC/);
    expect(
      chunks.every(
        (chunk) => chunk.modelVersion === 'google/gemini-3.1-pro-preview' && chunk.responseId === 'gen-native',
      ),
    ).toBe(true);
    expect(readings.find((r) => r.upstreamId)?.upstreamId).toBe('QHiLaa6LBrb8vdIPoNztsAg');
    expect(readings.find((r) => r.finish)?.finish).toBe('tool_calls');
    expect(readings.filter((r) => r.usage).at(-1)?.usage).toEqual({
      promptTokens: 61,
      completionTokens: 172,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 154,
    });
    expect(readings.reduce((n, r) => n + r.generatedChars, 0)).toBeGreaterThan(0);
    expect(readings.some((r) => r.error)).toBe(false);
  });

  it('a stream cut before its finishReason is a failure, billed what was reported', () => {
    const { readings } = replay(fixture('truncated.chunks.txt'));
    const last = readings.at(-1)!;
    expect(last.error).toMatchObject({ code: 'server_error' });
  });

  it("an error chunk ends the stream: a failure for the meter, an error in Google's shape for the client, the key cut out", () => {
    const text = `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"index":0}]}\n\ndata: {"error":{"code":503,"message":"overloaded for key ${provider.apiKey}","status":"UNAVAILABLE"}}\n\n`;
    const { readings, sent } = replay(text);
    expect(readings[1]).toMatchObject({ ends: true, error: { code: 'server_error' } });
    expect(sent[1]).not.toContain(provider.apiKey);
    expect(JSON.parse(sent[1].slice(6))).toEqual({
      error: {
        code: 503,
        status: 'UNAVAILABLE',
        message:
          'Upstream provider google is temporarily unavailable or overloaded (HTTP 503). overloaded for key AIza***',
      },
    });
  });

  it('an error chunk reads as the same error over HTTP would: mapped status and message, no details (project, quota names)', () => {
    const details = [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: 'generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count',
            quotaId: 'GenerateContentPaidTierInputTokensPerModelPerMinute',
          },
        ],
      },
      {
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'RATE_LIMIT_EXCEEDED',
        domain: 'googleapis.com',
        metadata: {
          consumer: 'projects/123456789012',
          quota_metric: 'generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count',
        },
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '29s' },
    ];
    const quota = JSON.stringify({
      error: {
        code: 429,
        message:
          'You exceeded your current quota. * Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count, limit: 2000000, model: gemini-3.1-pro',
        status: 'RESOURCE_EXHAUSTED',
        details,
      },
    });
    const internal = JSON.stringify({
      error: {
        code: 500,
        message: 'Internal error for consumer projects/123456789012 (project number 123456789012)',
        status: 'INTERNAL',
        details,
      },
    });
    for (const [chunk, expected] of [
      [
        quota,
        {
          code: 429,
          status: 'RESOURCE_EXHAUSTED',
          message: 'Upstream provider google rate limit reached; retry later.',
        },
      ],
      [
        internal,
        {
          code: 502,
          status: 'UNAVAILABLE',
          message:
            'Upstream provider google failed (HTTP 500). Internal error for consumer projects/[redacted] (project number [redacted])',
        },
      ],
    ] as const) {
      const { readings, sent } = replay(
        `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"index":0}]}\n\ndata: ${chunk}\n\n`,
      );
      expect(readings[1]).toMatchObject({ ends: true, error: { message: expected.message } });
      expect(JSON.parse(sent[1].slice(6))).toEqual({ error: expected });
      expect(sent[1]).not.toMatch(/123456789012|quota_?metric|QuotaFailure|generate_content_paid_tier/i);
    }
  });

  it("a whole answer comes back as Google sent it, with the gateway's ids; its usage and finish are metered", () => {
    const bytes = Buffer.from(fixture('text.json'));
    const answer = nativeGemini.readJson(bytes, ctx);
    const original = JSON.parse(bytes.toString());
    expect(
      JSON.parse(answer.render({ usage: answer.reading.usage!, costNanos: 0n, accessMode: 'credits' }).toString()),
    ).toEqual({ ...original, modelVersion: 'google/gemini-3.1-pro-preview', responseId: 'gen-native' });
    expect(answer.reading).toMatchObject({ finish: 'stop', usage: { promptTokens: 8, completionTokens: 9 } });
  });
});
