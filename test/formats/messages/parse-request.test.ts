// Messages request → GenerationRequest, the rules the recorded fixtures (test/fixtures/doors/messages) do not spell
// out one by one; and the round trip of reasoning state through thinking signatures.
import { describe, expect, it } from 'vitest';
import { parseMessagesRequest, parsePrompt } from '../../../src/formats/messages/parse-request.js';
import { gatewayModelId } from '../../../src/formats/messages/model-name.js';
import {
  recordsOfRedacted,
  recordsOfThinking,
  redactedData,
  thinkingSignature,
} from '../../../src/formats/messages/reasoning-signatures.js';
import { buildMessage } from '../../../src/formats/messages/build-message.js';
import { errorTypeOfStatus } from '../../../src/formats/messages/error-body.js';
import type { MessagesRequest } from '../../../src/formats/messages/wire-types.js';
import { GatewayError } from '../../../src/core/gateway-error.js';
import { thrown } from '../../helpers/thrown.js';

const base = { model: 'anthropic/claude-haiku-5-5', max_tokens: 100 };
const req = (extra: Record<string, unknown>) =>
  ({ ...base, messages: [{ role: 'user', content: 'hi' }], ...extra }) as MessagesRequest;
const prompt = (extra: Record<string, unknown>) => parsePrompt({ ...base, messages: [], ...extra } as never, 'm');

describe('parseMessagesRequest', () => {
  it('maps the scalar fields; the routing fields and unmodelled ones ride as extras', () => {
    const out = parseMessagesRequest(
      req({
        temperature: 0.5,
        top_p: 0.9,
        top_k: 7,
        stop_sequences: ['X'],
        metadata: { user_id: 'u' },
        provider: { sort: 'latency' },
      }),
      'm/x',
      true,
    );
    expect(out).toEqual({
      model: 'm/x',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [],
      stream: true,
      maxOutputTokens: 100,
      temperature: 0.5,
      topP: 0.9,
      topK: 7,
      stop: ['X'],
      user: 'u',
      extraFields: { provider: { sort: 'latency' } },
    });
  });

  it('system: a string is one instruction, blocks keep their cache breakpoints; an empty system is none', () => {
    expect(prompt({ system: 'Be brief.' }).system).toEqual([{ content: [{ type: 'text', text: 'Be brief.' }] }]);
    expect(
      prompt({ system: [{ type: 'text', text: 'A', cache_control: { type: 'ephemeral', ttl: '1h' } }] }).system,
    ).toEqual([{ content: [{ type: 'text', text: 'A', cache: { ttl: '1h' } }] }]);
    expect(prompt({ system: '' }).system).toEqual([]);
  });

  it('thinking: a budget, enabled, adaptive with the effort (max is xhigh), disabled; the effort alone', () => {
    expect(prompt({ thinking: { type: 'enabled', budget_tokens: 2048 } }).reasoning).toEqual({ budgetTokens: 2048 });
    expect(prompt({ thinking: { type: 'enabled' } }).reasoning).toEqual({ enabled: true });
    expect(prompt({ thinking: { type: 'disabled' } }).reasoning).toEqual({ enabled: false });
    expect(
      parseMessagesRequest(req({ thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }), 'm', false)
        .reasoning,
    ).toEqual({ adaptive: true, effort: 'xhigh' });
    expect(parseMessagesRequest(req({ thinking: { type: 'adaptive' } }), 'm', false).reasoning).toEqual({
      adaptive: true,
    });
    expect(parseMessagesRequest(req({ output_config: { effort: 'low' } }), 'm', false).reasoning).toEqual({
      effort: 'low',
    });
    expect(parseMessagesRequest(req({}), 'm', false)).not.toHaveProperty('reasoning');
  });

  it('tools and tool_choice: any → required, tool → the named tool, none; server tools are hosted tools', () => {
    const tools = [
      { name: 'f', description: 'F' },
      { type: 'web_search_20250305', name: 'web_search', max_uses: 3, cache_control: { type: 'ephemeral' } },
    ];
    expect(prompt({ tools, tool_choice: { type: 'any', disable_parallel_tool_use: true } })).toMatchObject({
      tools: [
        { type: 'function', name: 'f', description: 'F', parameters: { type: 'object', properties: {} } },
        { type: 'hosted', name: 'web_search_20250305', config: { name: 'web_search', max_uses: 3 }, cache: {} },
      ],
      toolChoice: { type: 'required' },
      parallelToolCalls: false,
    });
    expect(prompt({ tools, tool_choice: { type: 'tool', name: 'f' } }).toolChoice).toEqual({ type: 'tool', name: 'f' });
    expect(prompt({ tool_choice: { type: 'none' } }).toolChoice).toEqual({ type: 'none' });
    expect(thrown(() => prompt({ tool_choice: { type: 'tool' } })).metadata).toMatchObject({
      field: 'tool_choice.name',
    });
  });

  it('a block in the wrong turn, or of a type the translated lane does not carry, is a 400, not a 500', () => {
    expect(() =>
      parseMessagesRequest(
        req({ messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'b', input: {} }] }] }),
        'm',
        false,
      ),
    ).toThrow(/only allowed in an assistant turn/);
    expect(() =>
      parseMessagesRequest(
        req({ messages: [{ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'a' }] }] }),
        'm',
        false,
      ),
    ).toThrow(/only allowed in a user turn/);
    expect(() =>
      parseMessagesRequest(
        req({
          messages: [{ role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://x' } }] }],
        }),
        'm',
        false,
      ),
    ).toThrow(/text blocks only/);
    const unknown = thrown(() =>
      parseMessagesRequest(
        req({ messages: [{ role: 'user', content: [{ type: 'search_result', source: 's' }] }] }),
        'm',
        false,
      ),
    );
    expect(unknown).toBeInstanceOf(GatewayError);
    expect(unknown).toMatchObject({ status: 400, metadata: { field: 'messages[0].content[0].type' } });
    expect(unknown.message).toContain('"search_result"');
  });
});

describe('reasoning state in signatures', () => {
  it("Claude's own signature and redacted data pass as they are", () => {
    const record = { text: 't', signature: 'S', format: 'anthropic-claude-v1', index: 0 };
    expect(thinkingSignature({ type: 'reasoning', text: 't', signature: 'S', records: [record] })).toBe('S');
    expect(redactedData([{ data: 'D', format: 'anthropic-claude-v1' }])).toBe('D');
    expect(recordsOfThinking('t', 'S', 0)).toEqual([{ type: 'reasoning', ...record }]);
    expect(recordsOfRedacted('D', 2)).toEqual([
      { type: 'reasoning', data: 'D', format: 'anthropic-claude-v1', index: 2 },
    ]);
  });

  it("another provider's records survive the trip through signature and data exactly", () => {
    const gemini = { text: 'hmm', signature: 'g1', format: 'google-gemini-v1', index: 0 };
    const signature = thinkingSignature({ type: 'reasoning', text: 'hmm', signature: 'g1', records: [gemini] });
    expect(signature.startsWith('mg.rd1.')).toBe(true);
    expect(recordsOfThinking('hmm', signature, 0)).toEqual([{ type: 'reasoning', ...gemini }]);
    const call = { data: 'g2', callId: 'call_1', format: 'google-gemini-v1', index: 1 };
    expect(recordsOfRedacted(redactedData([call]), 0)).toEqual([{ type: 'reasoning', ...call }]);
  });

  it('unsigned thinking sent back is dropped (no provider could verify it)', () => {
    expect(recordsOfThinking('text', undefined, 0)).toEqual([]);
    expect(thinkingSignature({ type: 'reasoning', text: 'x', records: [] })).toBe('');
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
  it("keeps the reply's order (thinking, text, tool_use); maps finish reasons; input_tokens without cache", () => {
    const message = buildMessage(
      {
        output: [
          { type: 'reasoning', text: 'why', signature: 'S', format: 'anthropic-claude-v1', index: 0 },
          { type: 'text', text: 'Answer' },
          { type: 'tool_call', id: 't', name: 'f', kind: 'function', input: '{"x":1}' },
        ],
        finishReason: 'tool_calls',
      },
      {
        usage: { promptTokens: 50, completionTokens: 5, cachedTokens: 20, cacheWriteTokens: 10, reasoningTokens: 0 },
        costNanos: 1n,
        accessMode: 'credits',
      },
      { id: 'gen-1', model: 'anthropic/x', provider: 'anthropic', created: 1 },
    );
    expect(message).toEqual({
      id: 'gen-1',
      type: 'message',
      role: 'assistant',
      model: 'anthropic/x',
      content: [
        { type: 'thinking', thinking: 'why', signature: 'S' },
        { type: 'text', text: 'Answer' },
        { type: 'tool_use', id: 't', name: 'f', input: { x: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 20,
        output_tokens: 5,
        cache_read_input_tokens: 20,
        cache_creation_input_tokens: 10,
        cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 0 },
      },
    });
  });
});

describe('errorTypeOfStatus', () => {
  it("follows Anthropic's table", () => {
    expect([400, 401, 402, 403, 404, 413, 429, 500, 502, 503, 529].map(errorTypeOfStatus)).toEqual([
      'invalid_request_error',
      'authentication_error',
      'billing_error',
      'permission_error',
      'not_found_error',
      'request_too_large',
      'rate_limit_error',
      'api_error',
      'api_error',
      'overloaded_error',
      'overloaded_error',
    ]);
  });
});
