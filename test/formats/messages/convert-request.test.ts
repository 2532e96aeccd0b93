// Messages request → internal request, field by field, and the round trip of reasoning state through signatures.
import { describe, expect, it } from 'vitest';
import { toInternalPrompt, toInternalRequest } from '../../../src/formats/messages/convert-request.js';
import { gatewayModelId } from '../../../src/formats/messages/model-name.js';
import { detailsOfRedacted, detailsOfThinking, redactedData, thinkingSignature } from '../../../src/formats/messages/reasoning-signatures.js';
import { buildMessage } from '../../../src/formats/messages/build-message.js';
import { errorTypeOfStatus } from '../../../src/formats/messages/error-body.js';
import type { MessagesRequest } from '../../../src/formats/messages/wire-types.js';
import { GatewayError } from '../../../src/core/gateway-error.js';

const base = { model: 'anthropic/claude-haiku-5-5', max_tokens: 100 };
const req = (extra: Record<string, unknown>) => ({ ...base, messages: [{ role: 'user', content: 'hi' }], ...extra }) as MessagesRequest;

describe('toInternalRequest', () => {
  it('maps the scalar fields', () => {
    const out = toInternalRequest(req({ temperature: 0.5, top_p: 0.9, top_k: 7, stop_sequences: ['X'], metadata: { user_id: 'u' } }), 'm/x', true);
    expect(out).toEqual({ model: 'm/x', messages: [{ role: 'user', content: 'hi' }], max_tokens: 100, stream: true, temperature: 0.5, top_p: 0.9, top_k: 7, stop: ['X'], user: 'u' });
  });

  it('system string and blocks (cache_control kept on the part)', () => {
    expect(toInternalRequest(req({ system: 'Be brief.' }), 'm', false).messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(toInternalRequest(req({ system: [{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }] }), 'm', false).messages[0])
      .toEqual({ role: 'system', content: [{ type: 'text', text: 'A', cache_control: { type: 'ephemeral' } }] });
  });

  it('system turns inside messages become system messages in place', () => {
    const out = toInternalRequest(req({ messages: [{ role: 'user', content: 'a' }, { role: 'system', content: [{ type: 'text', text: 'ctx' }] }] }), 'm', false);
    expect(out.messages).toEqual([{ role: 'user', content: 'a' }, { role: 'system', content: [{ type: 'text', text: 'ctx' }] }]);
  });

  it('images: base64 → data URL, url → url', () => {
    const out = toInternalRequest(req({ messages: [{ role: 'user', content: [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
      { type: 'image', source: { type: 'url', url: 'https://x/y.png' } },
    ] }] }), 'm', false);
    expect(out.messages[0]).toEqual({ role: 'user', content: [
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAA' } },
      { type: 'image_url', image_url: { url: 'https://x/y.png' } },
    ] });
  });

  it('assistant turn: thinking and redacted_thinking → reasoning_details, text → content, tool_use → tool_calls; tool_result → tool message first', () => {
    const out = toInternalRequest(req({ messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [
        { type: 'thinking', thinking: 'hmm', signature: 'SIG' },
        { type: 'redacted_thinking', data: 'OPAQUE' },
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'f', input: { a: 1 } },
      ] },
      { role: 'user', content: [{ type: 'text', text: 'also' }, { type: 'tool_result', tool_use_id: 'toolu_1', content: 'done', is_error: true }] },
    ] }), 'm', false);
    expect(out.messages.slice(1)).toEqual([
      {
        role: 'assistant', content: 'Let me look.',
        reasoning_details: [
          { type: 'reasoning.text', text: 'hmm', signature: 'SIG', format: 'anthropic-claude-v1', index: 0 },
          { type: 'reasoning.encrypted', data: 'OPAQUE', format: 'anthropic-claude-v1', index: 1 },
        ],
        tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'done', is_error: true },
      { role: 'user', content: [{ type: 'text', text: 'also' }] },
    ]);
  });

  it('tools, tool_choice and thinking', () => {
    const tools = [{ name: 'f', description: 'F', input_schema: { type: 'object', properties: {} } }];
    expect(toInternalPrompt({ ...base, messages: [], tools, tool_choice: { type: 'any', disable_parallel_tool_use: true } } as never, 'm')).toMatchObject({
      tools: [{ type: 'function', function: { name: 'f', description: 'F', parameters: { type: 'object', properties: {} } } }],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(toInternalPrompt({ ...base, messages: [], tools, tool_choice: { type: 'tool', name: 'f' } } as never, 'm').tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
    expect(toInternalPrompt({ ...base, messages: [], tool_choice: { type: 'none' } } as never, 'm').tool_choice).toBe('none');
    expect(toInternalPrompt({ ...base, messages: [], thinking: { type: 'enabled', budget_tokens: 2048 } } as never, 'm').reasoning).toEqual({ max_tokens: 2048 });
    expect(toInternalPrompt({ ...base, messages: [], thinking: { type: 'disabled' } } as never, 'm').reasoning).toEqual({ enabled: false });
    expect(toInternalRequest(req({ thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }), 'm', false).reasoning).toEqual({ effort: 'xhigh' });
  });

  it('server tools and misplaced blocks are 400s, not 500s', () => {
    expect(() => toInternalPrompt({ ...base, messages: [], tools: [{ type: 'web_search_20250305', name: 'web_search' }] } as never, 'm')).toThrow(GatewayError);
    expect(() => toInternalRequest(req({ messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] }] }), 'm', false)).toThrow(/only allowed in an assistant turn/);
    expect(() => toInternalRequest(req({ messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'a' }] }] }), 'm', false)).toThrow(/only allowed in a user turn/);
  });
});

describe('reasoning state in signatures', () => {
  it('Claude\'s own signature and redacted data pass as they are', () => {
    const detail = { type: 'reasoning.text' as const, text: 't', signature: 'S', format: 'anthropic-claude-v1', index: 0 };
    expect(thinkingSignature({ type: 'reasoning', text: 't', signature: 'S', details: [detail] })).toBe('S');
    expect(redactedData([{ type: 'reasoning.encrypted', data: 'D', format: 'anthropic-claude-v1' }])).toBe('D');
  });

  it('another provider\'s details survive the trip through signature and data exactly', () => {
    const gemini = [{ type: 'reasoning.text' as const, text: 'hmm', signature: 'g1', format: 'google-gemini-v1', index: 0 }];
    const signature = thinkingSignature({ type: 'reasoning', text: 'hmm', signature: 'g1', details: gemini });
    expect(signature.startsWith('mg.rd1.')).toBe(true);
    expect(detailsOfThinking('hmm', signature, 0)).toEqual(gemini);
    const call = [{ type: 'reasoning.encrypted' as const, data: 'g2', id: 'call_1', format: 'google-gemini-v1', index: 1 }];
    expect(detailsOfRedacted(redactedData(call), 0)).toEqual(call);
  });

  it('unsigned thinking sent back is dropped (no provider could verify it)', () => {
    expect(detailsOfThinking('text', undefined, 0)).toEqual([]);
    expect(thinkingSignature({ type: 'reasoning', text: 'x', details: [] })).toBe('');
  });
});

describe('gatewayModelId', () => {
  const catalog = { get: (id: string) => (id === 'anthropic/claude-sonnet-5-5' ? ({} as never) : undefined) };
  it('bare and dated Claude names resolve to the anthropic/ model; gateway ids pass', () => {
    expect(gatewayModelId(catalog, 'claude-sonnet-5-5')).toBe('anthropic/claude-sonnet-5-5');
    expect(gatewayModelId(catalog, 'claude-sonnet-5-5-20250929')).toBe('anthropic/claude-sonnet-5-5');
    expect(gatewayModelId(catalog, 'openai/gpt-5.4-mini')).toBe('openai/gpt-5.4-mini');
    expect(gatewayModelId(catalog, 'claude-nope')).toBe('anthropic/claude-nope');
  });
});

describe('buildMessage', () => {
  it('orders thinking, text, tool_use; maps finish reasons; input_tokens without cache', () => {
    const message = buildMessage(
      {
        content: 'Answer', finishReason: 'tool_calls',
        reasoningDetails: [{ type: 'reasoning.text', text: 'why', signature: 'S', format: 'anthropic-claude-v1', index: 0 }],
        toolCalls: [{ id: 't', type: 'function', function: { name: 'f', arguments: '{"x":1}' } }],
      },
      { usage: { promptTokens: 50, completionTokens: 5, cachedTokens: 20, cacheWriteTokens: 10, reasoningTokens: 0 }, costNanos: 1n, accessMode: 'credits' },
      { id: 'gen-1', model: 'anthropic/x', provider: 'anthropic', created: 1 },
    );
    expect(message).toEqual({
      id: 'gen-1', type: 'message', role: 'assistant', model: 'anthropic/x',
      content: [{ type: 'thinking', thinking: 'why', signature: 'S' }, { type: 'text', text: 'Answer' }, { type: 'tool_use', id: 't', name: 'f', input: { x: 1 } }],
      stop_reason: 'tool_use', stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 5, cache_read_input_tokens: 20, cache_creation_input_tokens: 10, cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 0 } },
    });
  });
});

describe('errorTypeOfStatus', () => {
  it('follows Anthropic\'s table', () => {
    expect([400, 401, 402, 403, 404, 413, 429, 500, 502, 503, 529].map(errorTypeOfStatus)).toEqual([
      'invalid_request_error', 'authentication_error', 'billing_error', 'permission_error', 'not_found_error',
      'request_too_large', 'rate_limit_error', 'api_error', 'api_error', 'overloaded_error', 'overloaded_error',
    ]);
  });
});
