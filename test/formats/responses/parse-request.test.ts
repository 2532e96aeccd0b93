// Responses request → GenerationRequest: the rules the recorded fixtures (test/fixtures/doors/responses) do not spell
// out one by one, and what a stateless gateway refuses.
import { describe, expect, it } from 'vitest';
import { parseResponseRequest } from '../../../src/formats/responses/parse-request.js';
import { encodeReasoningContent } from '../../../src/formats/responses/reasoning-content.js';
import type { ResponseRequest } from '../../../src/formats/responses/wire-types.js';
import { GatewayError } from '../../../src/core/gateway-error.js';
import { buildRequest } from '../../../src/providers/anthropic/index.js';
import { anthropicContext } from '../../providers/anthropic/anthropic-context.js';

const parse = (body: Record<string, unknown>) =>
  parseResponseRequest({ model: 'openai/gpt-test', input: 'hi', ...body } as ResponseRequest);

function rejection(run: () => unknown): GatewayError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    return err as GatewayError;
  }
  throw new Error('expected a GatewayError');
}

const signed = [{ text: 'Think.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 }];

describe('parseResponseRequest', () => {
  it('string input with instructions: the instructions, then one user turn', () => {
    expect(parse({ instructions: 'Be brief.', input: 'Hello' })).toMatchObject({
      system: [{ content: [{ type: 'text', text: 'Be brief.' }] }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    });
  });

  it('items: one assistant turn from reasoning, message and function_call; outputs become tool results', () => {
    const request = parse({
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Look:' }] },
        {
          type: 'reasoning',
          id: 'rs_1',
          summary: [{ type: 'summary_text', text: 'Think.' }],
          encrypted_content: encodeReasoningContent(signed),
        },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
        },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'ls', arguments: '{}', status: 'completed' },
        { type: 'function_call', call_id: 'call_2', name: 'cat', arguments: '{"f":"a"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'a b' },
        {
          type: 'function_call_output',
          call_id: 'call_2',
          output: [
            { type: 'input_text', text: 'line 1' },
            { type: 'input_text', text: 'line 2' },
          ],
        },
      ],
    });
    expect(request.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Look:' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Think.' },
          { type: 'reasoning', ...signed[0] },
          { type: 'text', text: 'Checking.' },
          { type: 'tool_call', id: 'call_1', name: 'ls', kind: 'function', input: '{}' },
          { type: 'tool_call', id: 'call_2', name: 'cat', kind: 'function', input: '{"f":"a"}' },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', callId: 'call_1', content: [{ type: 'text', text: 'a b' }] }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', callId: 'call_2', content: [{ type: 'text', text: 'line 1\nline 2' }] }],
      },
    ]);
  });

  it('maps tools, tool_choice, limits, sampling, reasoning, text format and verbosity, user and cache key; echo fields stay', () => {
    const request = parse({
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
      ],
      tool_choice: { type: 'function', name: 'get_weather' },
      parallel_tool_calls: false,
      max_output_tokens: 300,
      temperature: 0.5,
      top_p: 0.9,
      user: 'u-1',
      reasoning: { effort: 'low', summary: 'detailed' },
      text: {
        format: { type: 'json_schema', name: 'weather', schema: { type: 'object' }, strict: true },
        verbosity: 'high',
      },
      metadata: { a: 'b' },
      store: true,
      include: ['reasoning.encrypted_content'],
      prompt_cache_key: 'k',
      previous_response_id: null,
    });
    expect(request).toEqual({
      model: 'openai/gpt-test',
      system: [],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object' }, strict: true },
      ],
      toolChoice: { type: 'tool', name: 'get_weather' },
      parallelToolCalls: false,
      maxOutputTokens: 300,
      temperature: 0.5,
      topP: 0.9,
      user: 'u-1',
      reasoning: { effort: 'low', summary: 'detailed' },
      responseFormat: { type: 'json_schema', name: 'weather', schema: { type: 'object' }, strict: true },
      verbosity: 'high',
      cache: { key: 'k' },
      stream: false,
    });
    expect(parse({ text: { format: { type: 'json_object' } }, tool_choice: 'required' })).toMatchObject({
      responseFormat: { type: 'json_object' },
      toolChoice: { type: 'required' },
    });
  });

  it('answers previous_response_id and conversation with 400: send the full input', () => {
    for (const body of [{ previous_response_id: 'resp_1' }, { conversation: { id: 'conv_1' } }]) {
      const err = rejection(() => parse(body));
      expect(err.status).toBe(400);
      expect(err.message).toContain('send the full conversation in input');
      expect(err.metadata).toMatchObject({ reason: 'stateless', field: Object.keys(body)[0] });
    }
  });

  it('custom, namespace and hosted tools are carried; an adapter that cannot send one answers 400 naming it', () => {
    const request = parse({
      tools: [
        { type: 'function', name: 'ok' },
        { type: 'custom', name: 'apply_patch', format: { type: 'text' } },
        {
          type: 'namespace',
          name: 'ns',
          tools: [
            { type: 'function', name: 'a' },
            { type: 'function', name: 'b' },
          ],
        },
        { type: 'local_shell' },
      ],
    });
    expect(request.tools).toEqual([
      { type: 'function', name: 'ok' },
      { type: 'custom', name: 'apply_patch', format: { type: 'text' } },
      { type: 'function', name: 'a', namespace: 'ns' },
      { type: 'function', name: 'b', namespace: 'ns' },
      { type: 'hosted', name: 'local_shell', config: {} },
    ]);
    for (const [tools, type] of [
      [request.tools.slice(4), 'local_shell'],
      [request.tools.slice(1, 2), 'custom'],
      [request.tools.slice(2, 3), 'namespace'],
    ] as const) {
      const err = rejection(() => buildRequest({ ...request, tools: [...tools] }, anthropicContext()));
      expect(err.status).toBe(400);
      expect(err.metadata).toMatchObject({
        reason: 'tool_type_not_supported',
        tool_type: type,
        field: 'tools[0].type',
      });
    }
    expect(rejection(() => parse({ tools: [{ type: 'function' }] })).metadata).toMatchObject({
      field: 'tools[0].name',
    });
  });

  it('answers other input item types and content part types with 400 naming the type', () => {
    const err = rejection(() =>
      parse({
        input: [
          { role: 'user', content: 'x' },
          { type: 'local_shell_call', call_id: 'c' },
        ],
      }),
    );
    expect(err.message).toContain('"local_shell_call"');
    expect(err.metadata).toMatchObject({ field: 'input[1]' });
    const part = rejection(() => parse({ input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] }));
    expect(part.message).toContain('"input_file"');
  });
});
