// The Gemini door's renderers with other providers' events: Claude's streamed thinking and fragmented tool input
// become whole Gemini parts, Claude's reasoning state rides on the first function call (which Gemini CLI replays) and
// comes back from it; failures after the start are chunks in Google's error shape.
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/core/generation.js';
import { GeminiStreamRenderer } from '../../../src/formats/gemini/gemini-stream-renderer.js';
import { parseGeminiRequest } from '../../../src/formats/gemini/parse-request.js';
import { geminiErrorBody, GEMINI_ERROR_SHAPE } from '../../../src/formats/gemini/error-body.js';
import { GatewayError } from '../../../src/core/gateway-error.js';

const identity = { id: 'gen-1', model: 'anthropic/claude-sonnet-5-5', provider: 'anthropic', created: 1 };
const totals = {
  usage: { promptTokens: 10, completionTokens: 7, cachedTokens: 4, cacheWriteTokens: 0, reasoningTokens: 3 },
  costNanos: 1n,
  accessMode: 'credits' as const,
};

function render(events: StreamEvent[]) {
  const renderer = new GeminiStreamRenderer(identity);
  const frames = [
    ...renderer.start(),
    ...events.flatMap((event) => renderer.event(event)),
    ...renderer.end({ type: 'finish', finishReason: 'tool_calls', totals }),
  ];
  return frames.map((frame) => JSON.parse(frame.data));
}

describe('Gemini stream renderer', () => {
  const claudeTurn: StreamEvent[] = [
    { type: 'reasoning-delta', text: 'Think ' },
    { type: 'reasoning-delta', text: 'twice.' },
    { type: 'reasoning-state', state: { signature: 'sig-claude', format: 'anthropic-claude-v1' } },
    { type: 'text-delta', text: 'Reading.' },
    { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'read_file', kind: 'function', input: '' },
    { type: 'tool-call-delta', index: 0, input: '{"file_path":' },
    { type: 'tool-call-delta', index: 0, input: '"a.txt"}' },
    { type: 'tool-call-start', index: 1, id: 'toolu_2', name: 'glob', kind: 'function', input: '{}' },
  ];

  it("streams thoughts and text as they come, each call whole, Claude's state on the first call, finish and usage last", () => {
    const chunks = render(claudeTurn);
    const parts = chunks.flatMap((chunk) => chunk.candidates[0].content.parts);
    expect(parts.slice(0, 3)).toEqual([
      { text: 'Think ', thought: true },
      { text: 'twice.', thought: true },
      { text: 'Reading.' },
    ]);
    expect(parts[3]).toMatchObject({
      functionCall: { id: 'toolu_1', name: 'read_file', args: { file_path: 'a.txt' } },
      thoughtSignature: expect.stringMatching(/^mg\.gs1\./),
    });
    expect(parts[4]).toEqual({ functionCall: { id: 'toolu_2', name: 'glob', args: {} } });
    const last = chunks.at(-1);
    expect(last).toMatchObject({
      candidates: [{ finishReason: 'STOP', index: 0 }],
      modelVersion: 'anthropic/claude-sonnet-5-5',
      responseId: 'gen-1',
    });
    expect(last.usageMetadata).toEqual({
      promptTokenCount: 10,
      cachedContentTokenCount: 4,
      candidatesTokenCount: 4,
      thoughtsTokenCount: 3,
      totalTokenCount: 17,
    });
  });

  it("the call's signature brings Claude's thinking back when the client replays the call (as Gemini CLI does)", () => {
    const parts = render(claudeTurn).flatMap((chunk) => chunk.candidates[0].content.parts);
    const call = parts.find((part) => part.functionCall?.id === 'toolu_1');
    const request = parseGeminiRequest(
      {
        contents: [
          { role: 'user', parts: [{ text: 'go' }] },
          { role: 'model', parts: [{ functionCall: call.functionCall, thoughtSignature: call.thoughtSignature }] },
          {
            role: 'user',
            parts: [{ functionResponse: { id: 'toolu_1', name: 'read_file', response: { output: 'x' } } }],
          },
        ],
      },
      'anthropic/claude-sonnet-5-5',
      true,
    );
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [
        // The signature came without its text (streamed apart): the text streamed before it is kept with it.
        { type: 'reasoning', text: 'Think twice.', signature: 'sig-claude', format: 'anthropic-claude-v1', index: 0 },
        { type: 'tool_call', id: 'toolu_1', name: 'read_file', kind: 'function', input: '{"file_path":"a.txt"}' },
      ],
    });
    expect(request.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: 'x' }] }],
    });
  });

  it('reasoning with no call to ride on ends the reply on a thought part of its own', () => {
    const parts = render([
      { type: 'reasoning-delta', text: 'Hm.' },
      { type: 'reasoning-state', state: { signature: 's', format: 'anthropic-claude-v1' } },
      { type: 'text-delta', text: 'Hi' },
    ]).flatMap((chunk) => chunk.candidates[0].content.parts);
    expect(parts.at(-1)).toEqual({ text: '', thought: true, thoughtSignature: expect.stringMatching(/^mg\.gs1\./) });
  });

  it("a failure after the start is a chunk in Google's error shape; the keep-alive is whitespace", () => {
    const renderer = new GeminiStreamRenderer(identity);
    renderer.event({ type: 'text-delta', text: 'Hi' });
    const [frame] = renderer.end({ type: 'error', code: 'rate_limit', message: 'Upstream rate limited', totals });
    expect(frame.event).toBeUndefined();
    expect(JSON.parse(frame.data)).toEqual({
      error: { code: 429, message: 'Upstream rate limited', status: 'RESOURCE_EXHAUSTED' },
    });
    expect(renderer.keepAlive.trim()).toBe('');
  });
});

describe('Gemini error body', () => {
  it("keeps the gateway's status as code, names the google.rpc status, and carries reason and metadata as ErrorInfo", () => {
    expect(geminiErrorBody(402, 'Insufficient credits')).toEqual({
      error: { code: 402, message: 'Insufficient credits', status: 'FAILED_PRECONDITION' },
    });
    const body = GEMINI_ERROR_SHAPE.render(
      new GatewayError(400, 'bad', { reason: 'tool_type_not_supported', field: 'tools[0]', tool_type: 'googleSearch' }),
      'req_1',
    );
    expect(body).toEqual({
      error: {
        code: 400,
        message: 'bad',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'tool_type_not_supported',
            domain: 'modelgate',
            metadata: {
              reason: 'tool_type_not_supported',
              field: 'tools[0]',
              tool_type: 'googleSearch',
              request_id: 'req_1',
            },
          },
        ],
      },
    });
  });
});
