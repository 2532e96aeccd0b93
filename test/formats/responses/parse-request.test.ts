import { describe, expect, it } from 'vitest';
import { parseResponseRequest } from '../../../src/formats/responses/parse-request.js';
import { encodeReasoningContent } from '../../../src/formats/responses/reasoning-content.js';
import type { ResponseRequest } from '../../../src/formats/responses/wire-types.js';
import { GatewayError } from '../../../src/core/gateway-error.js';

const parse = (body: Record<string, unknown>) => parseResponseRequest({ model: 'openai/gpt-test', input: 'hi', ...body } as ResponseRequest);

function rejection(body: Record<string, unknown>): GatewayError {
  try {
    parse(body);
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  }
  throw new Error('expected a GatewayError');
}

const signed = [{ type: 'reasoning.text' as const, text: 'Think.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 }];

describe('parseResponseRequest', () => {
  it('string input with instructions: a system message, then the user message', () => {
    expect(parse({ instructions: 'Be brief.', input: 'Hello' }).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello' },
    ]);
  });

  it('items: one assistant turn from reasoning, message and function_call; outputs become tool messages', () => {
    const request = parse({
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }, { type: 'input_text', text: 'More.' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'Look:' }, { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Think.' }], encrypted_content: encodeReasoningContent(signed) },
        { type: 'message', role: 'assistant', id: 'msg_1', status: 'completed', content: [{ type: 'output_text', text: 'Checking.', annotations: [] }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'ls', arguments: '{}', status: 'completed' },
        { type: 'function_call', call_id: 'call_2', name: 'cat', arguments: '{"f":"a"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'a b' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'line 1' }, { type: 'input_text', text: 'line 2' }] },
        { role: 'user', content: 'Thanks' },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'developer', content: 'Rules.\nMore.' },
      { role: 'user', content: [{ type: 'text', text: 'Look:' }, { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } }] },
      {
        role: 'assistant', content: 'Checking.', reasoning: 'Think.', reasoning_details: signed,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } },
          { id: 'call_2', type: 'function', function: { name: 'cat', arguments: '{"f":"a"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'a b' },
      { role: 'tool', tool_call_id: 'call_2', content: 'line 1\nline 2' },
      { role: 'user', content: 'Thanks' },
    ]);
  });

  it('maps tools, tool_choice, limits, sampling, reasoning effort, text.format and user; drops echo-only fields', () => {
    const request = parse({
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true }],
      tool_choice: { type: 'function', name: 'get_weather' }, parallel_tool_calls: false,
      max_output_tokens: 300, temperature: 0.5, top_p: 0.9, user: 'u-1',
      reasoning: { effort: 'low', summary: 'detailed' },
      text: { format: { type: 'json_schema', name: 'weather', schema: { type: 'object' }, strict: true } },
      metadata: { a: 'b' }, store: true, include: ['reasoning.encrypted_content'], prompt_cache_key: 'k', previous_response_id: null,
    });
    expect(request).toEqual({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true } }],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      parallel_tool_calls: false,
      max_completion_tokens: 300,
      temperature: 0.5,
      top_p: 0.9,
      user: 'u-1',
      reasoning: { effort: 'low' },
      response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: { type: 'object' }, strict: true } },
    });
    expect(parse({ text: { format: { type: 'json_object' } }, tool_choice: 'required' })).toMatchObject({ response_format: { type: 'json_object' }, tool_choice: 'required' });
  });

  it('answers previous_response_id and conversation with 400: send the full input', () => {
    for (const body of [{ previous_response_id: 'resp_1' }, { conversation: { id: 'conv_1' } }]) {
      const err = rejection(body);
      expect(err.status).toBe(400);
      expect(err.message).toContain('send the full conversation in input');
      expect(err.metadata).toMatchObject({ reason: 'stateless', field: Object.keys(body)[0] });
    }
  });

  it('answers built-in tool types with 400 naming the type', () => {
    for (const type of ['web_search', 'namespace', 'custom', 'local_shell']) {
      const err = rejection({ tools: [{ type: 'function', name: 'ok' }, { type }] });
      expect(err.status).toBe(400);
      expect(err.message).toContain(`"${type}"`);
      expect(err.metadata).toMatchObject({ field: 'tools[1].type', tool_type: type });
    }
    expect(rejection({ tools: [{ type: 'function' }] }).metadata).toMatchObject({ field: 'tools[0].name' });
  });

  it('answers other input item types with 400 naming the type', () => {
    const err = rejection({ input: [{ role: 'user', content: 'x' }, { type: 'local_shell_call', call_id: 'c' }] });
    expect(err.message).toContain('"local_shell_call"');
    expect(err.metadata).toMatchObject({ field: 'input[1]' });
  });
});
