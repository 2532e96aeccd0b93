// Automatic cache breakpoints (issue 37 §3): a chat or Responses request to Claude that marks nothing gets
// breakpoints on the last tool, the system prompt and the conversation so far; one that marks anything, or opted out,
// is sent as it came.
import { describe, expect, it } from 'vitest';
import type { GenerationRequest } from '../../../src/core/generation-request.js';
import { buildBody } from '../../../src/providers/anthropic/index.js';
import { anthropicContext } from './anthropic-context.js';

const EPHEMERAL = { type: 'ephemeral' };

function request(overrides: Partial<GenerationRequest> = {}): GenerationRequest {
  return {
    model: 'anthropic/claude-sonnet-4-5',
    stream: false,
    autoCache: true,
    system: [{ content: [{ type: 'text', text: 'You are Codex.' }] }],
    tools: [
      { type: 'function', name: 'exec_command', parameters: { type: 'object', properties: {} } },
      { type: 'function', name: 'view_image', parameters: { type: 'object', properties: {} } },
    ],
    messages: [
      { role: 'user', content: [{ type: 'text', text: 'List the files.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'ls', signature: 'sig', format: 'anthropic-claude-v1' },
          { type: 'tool_call', id: 'toolu_1', name: 'exec_command', kind: 'function', input: '{}' },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: 'a.txt' }] }],
      },
    ],
    ...overrides,
  };
}

describe('automatic cache breakpoints', () => {
  it("mark the last tool, the system prompt and the last block of the conversation so far (3 of Anthropic's 4)", () => {
    const body = buildBody(request(), anthropicContext());
    expect(body.tools?.map((tool) => tool.cache_control)).toEqual([undefined, EPHEMERAL]);
    expect(body.system).toEqual([{ type: 'text', text: 'You are Codex.', cache_control: EPHEMERAL }]);
    expect(body.messages.at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.txt', cache_control: EPHEMERAL }],
    });
    const marks = JSON.stringify(body).split('"cache_control"').length - 1;
    expect(marks).toBe(3);
  });

  it("a first turn's plain user text becomes a marked text block; thinking is never marked", () => {
    const body = buildBody(
      request({ tools: [], system: [], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }),
      anthropicContext(),
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: EPHEMERAL }] },
    ]);
    expect(body.system).toBeUndefined();
    const prefill = buildBody(
      request({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          {
            role: 'assistant',
            content: [{ type: 'reasoning', text: 't', signature: 's', format: 'anthropic-claude-v1' }],
          },
        ],
      }),
      anthropicContext(),
    );
    expect(prefill.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 't', signature: 's' }],
    });
  });

  it('a request that marks any block itself is sent as it came', () => {
    const marked = request();
    (marked.messages[0].content[0] as { cache?: object }).cache = { ttl: '1h' };
    const body = buildBody(marked, anthropicContext());
    expect(JSON.stringify(body).split('"cache_control"').length - 1).toBe(1);
    expect(body.tools?.every((tool) => tool.cache_control === undefined)).toBe(true);
  });

  it('no breakpoints when the door did not ask for them (a Messages client, or X-Modelgate-Auto-Cache: off)', () => {
    const body = buildBody(request({ autoCache: undefined }), anthropicContext());
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });
});
