// Codex's tools (issue 37 §2) through each back door's lowering: what the vendor is sent, what it drops (with the
// warning the client gets), and a recorded Anthropic stream's calls restored to the client's custom and namespaced
// tools.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GenerationRequest } from '../../../src/core/generation-request.js';
import type { AdapterContext, ProviderAdapter } from '../../../src/providers/adapter.js';
import { createAnthropicAdapter } from '../../../src/providers/anthropic/index.js';
import { createGeminiAdapter } from '../../../src/providers/gemini/index.js';
import { createOpenAICompatibleAdapter } from '../../../src/providers/openai-compatible/index.js';
import { loadChunks, replay } from '../../helpers/stream-replay.js';

const codex = (): GenerationRequest =>
  JSON.parse(
    readFileSync(new URL('../../fixtures/doors/responses/codex-namespaces.expected.json', import.meta.url), 'utf8'),
  );

function ctx(
  kind: 'anthropic' | 'openai-compatible' | 'gemini',
  id: string,
  upstreamModel: string,
  request: GenerationRequest,
): AdapterContext {
  return {
    provider: { id, kind, baseUrl: 'https://upstream.test', apiKey: 'k' },
    model: { id: `${id}/${upstreamModel}`, upstreamModel, supportsReasoning: true, maxOutputTokens: 8192 },
    stream: true,
    tools: request.tools,
  };
}

const sent = (adapter: ProviderAdapter, request: GenerationRequest, context: AdapterContext) =>
  JSON.parse(adapter.buildRequest(request, context).body);

describe('Anthropic', () => {
  const adapter = createAnthropicAdapter();

  it('gets namespaced members as flattened functions, a custom tool as a function of one string, tool search as a function, web search as its own server tool', () => {
    const request = codex();
    const body = sent(adapter, request, ctx('anthropic', 'anthropic', 'claude-sonnet-4-5', request));
    expect(body.tools.map((t: any) => t.type ?? t.name)).toEqual([
      'tool_search',
      'web_search_20250305',
      'functions__exec',
      'functions__wait',
      'clock__sleep',
      'multi_agent_v1__spawn_agent',
    ]);
    expect(body.tools[1]).toEqual({ type: 'web_search_20250305', name: 'web_search' });
    expect(body.tools[2]).toMatchObject({
      name: 'functions__exec',
      input_schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
    });
    expect(body.tools[2].description).toContain('lark grammar');
    expect(body.tools[2].description).toContain('SOURCE: /[\\s\\S]+/');
    expect(body.tools[0]).toEqual({
      name: 'tool_search',
      description: 'Searches deferred tools.',
      input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    });
    // Earlier calls replay under the names the model was offered.
    expect(body.messages[1].content).toEqual([
      { type: 'tool_use', id: 'call_sleep', name: 'clock__sleep', input: { ms: 10 } },
    ]);
    expect(body.messages[3].content).toEqual([
      { type: 'tool_use', id: 'call_search', name: 'tool_search', input: { query: 'agents' } },
    ]);
    expect(adapter.warnings?.(request, ctx('anthropic', 'anthropic', 'claude-sonnet-4-5', request))).toEqual([]);
  });

  it('a custom call replays with its raw input as {"input": ...}, and its output as the tool_result', () => {
    const request: GenerationRequest = {
      model: 'anthropic/claude-sonnet-5-5',
      system: [],
      stream: false,
      tools: [{ type: 'custom', name: 'apply_patch', description: 'Edits files' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Add hello.txt' }] },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_call',
              id: 'call_1',
              name: 'apply_patch',
              kind: 'custom',
              input: '*** Begin Patch\n*** End Patch',
            },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', callId: 'call_1', kind: 'custom', content: [{ type: 'text', text: 'Done' }] },
          ],
        },
      ],
    };
    const body = sent(adapter, request, ctx('anthropic', 'anthropic', 'claude-sonnet-4-5', request));
    expect(body.messages[1].content).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'apply_patch', input: { input: '*** Begin Patch\n*** End Patch' } },
    ]);
    expect(body.messages[2].content).toEqual([{ type: 'tool_result', tool_use_id: 'call_1', content: 'Done' }]);
  });

  it("a recorded stream's calls come back as the custom tool (raw input, streamed) and the namespaced tool", () => {
    const request: GenerationRequest = {
      model: 'anthropic/claude-sonnet-5-5',
      system: [],
      messages: [],
      stream: true,
      tools: [
        { type: 'custom', name: 'apply_patch' },
        { type: 'function', name: 'spawn_agent', namespace: 'multi_agent_v1' },
      ],
    };
    const events = replay(
      loadChunks('anthropic', 'custom-tool-call'),
      adapter.createStreamTranslator(ctx('anthropic', 'anthropic', 'claude-sonnet-4-5', request)),
    );
    const starts = events.filter((e) => e.type === 'tool-call-start');
    expect(starts).toEqual([
      {
        type: 'tool-call-start',
        index: 0,
        id: 'toolu_01PaTcH5Vq8Lw2Xz',
        name: 'apply_patch',
        kind: 'custom',
        input: '',
      },
      {
        type: 'tool-call-start',
        index: 1,
        id: 'toolu_01SpAwN2Lq8Xw',
        name: 'spawn_agent',
        namespace: 'multi_agent_v1',
        kind: 'function',
        input: '',
      },
    ]);
    const patch = events
      .filter((e) => e.type === 'tool-call-delta' && e.index === 0)
      .map((e) => (e as { input: string }).input);
    expect(patch).toEqual(['*** Begin Patch\n*** Add File: hel', 'lo.txt\n+hi "there"\n*** End Patch\n']);
    const agent = events
      .filter((e) => e.type === 'tool-call-delta' && e.index === 1)
      .map((e) => (e as { input: string }).input)
      .join('');
    expect(JSON.parse(agent)).toEqual({ task: 'review' });
  });

  it("a whole reply's calls are restored the same way", () => {
    const request: GenerationRequest = {
      model: 'm',
      system: [],
      messages: [],
      stream: false,
      tools: [{ type: 'custom', name: 'apply_patch' }],
    };
    const result = adapter.parseCompletion(
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude',
        stop_reason: 'tool_use',
        usage: { input_tokens: 5, output_tokens: 3 },
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'apply_patch', input: { input: '*** Begin Patch\n*** End Patch' } },
        ],
      },
      ctx('anthropic', 'anthropic', 'claude-sonnet-4-5', request),
    );
    expect(result.output).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_1',
        name: 'apply_patch',
        kind: 'custom',
        input: '*** Begin Patch\n*** End Patch',
      },
    ]);
  });
});

describe('OpenAI-compatible chat vendor', () => {
  const adapter = createOpenAICompatibleAdapter();

  it('gets function tools only; the hosted web search is left out and named in the warning', () => {
    const request = codex();
    const context = ctx('openai-compatible', 'deepseek', 'deepseek-chat', request);
    const body = sent(adapter, request, context);
    expect(body.tools.map((t: any) => t.function.name)).toEqual([
      'tool_search',
      'functions__exec',
      'functions__wait',
      'clock__sleep',
      'multi_agent_v1__spawn_agent',
    ]);
    expect(body.tools.every((t: any) => t.type === 'function')).toBe(true);
    expect(body.messages.find((m: any) => m.tool_calls)?.tool_calls[0].function).toEqual({
      name: 'clock__sleep',
      arguments: '{"ms":10}',
    });
    expect(adapter.warnings?.(request, context)).toEqual([
      'tool web_search dropped: openai-compatible vendor deepseek has no hosted web search',
    ]);
  });
});

describe('Gemini', () => {
  const adapter = createGeminiAdapter();

  it('Gemini 3 takes the web search as Google Search beside the functions', () => {
    const request = codex();
    const body = sent(adapter, request, ctx('gemini', 'google', 'gemini-3-pro-preview', request));
    expect(body.tools[0].functionDeclarations.map((d: any) => d.name)).toEqual([
      'tool_search',
      'functions__exec',
      'functions__wait',
      'clock__sleep',
      'multi_agent_v1__spawn_agent',
    ]);
    expect(body.tools[1]).toEqual({ googleSearch: {} });
  });

  it('Gemini 2.5 cannot combine Google Search with functions: the search is left out, with a warning', () => {
    const request = codex();
    const context = ctx('gemini', 'google', 'gemini-2.5-pro', request);
    expect(sent(adapter, request, context).tools).toHaveLength(1);
    expect(adapter.warnings?.(request, context)).toEqual([
      'tool web_search dropped: gemini-2.5-pro cannot combine Google Search with function tools',
    ]);
  });
});
