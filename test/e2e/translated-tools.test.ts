// Codex's tools on the translated lane, over HTTP (issue 37 §2): a Codex-shaped Responses request (research §4.2b:
// custom apply_patch, client tool_search, web_search, namespace multi_agent_v1) reaches Claude and an OpenAI-compatible
// chat vendor as tools each understands, answers 200, and names in x-modelgate-warning a hosted tool that was left
// out; Claude's apply_patch call comes back as a custom_tool_call (streamed as custom_tool_call_input events), its
// namespaced call as a function_call with its namespace; and the next turn replays them, with the signed thinking.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, openAiSse } from '../helpers/mock-upstream.js';

let gw: TestGateway;
let upstream: MockUpstream;
let key: string;
const fixture = (path: string) => readFileSync(new URL(`../fixtures/${path}`, import.meta.url), 'utf8');

beforeAll(async () => {
  upstream = await new MockUpstream().start();
  gw = await startTestGateway({
    env: {
      ANTHROPIC_API_KEY: 'sk-ant-upstream',
      ANTHROPIC_BASE_URL: upstream.url,
      DEEPSEEK_API_KEY: 'sk-ds-upstream',
      DEEPSEEK_BASE_URL: `${upstream.url}/ds`,
      GEMINI_API_KEY: 'AIzaUp',
      GOOGLE_BASE_URL: `${upstream.url}/v1beta`,
    },
  });
  const user = await gw.createUser();
  await gw.grant(user.userId, 10);
  key = user.key;
});
afterAll(async () => {
  await gw?.close();
  await upstream?.close();
});
beforeEach(() => upstream.reset());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  gw.fetch('/api/v1/responses', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

function events(text: string): Array<{ type: string; [field: string]: any }> {
  return text
    .split('\n\n')
    .filter((block) => block.includes('data: '))
    .map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 'data: '.length)));
}

const PATCH_GRAMMAR =
  'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?\n%import common.LF';

/** Codex 0.169's request to a catalog model without "lite" (research §4.2b), trimmed to one tool of each kind. */
function codexRequest(model: string, input: unknown[]) {
  return {
    model,
    stream: true,
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { effort: 'medium' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: '01a220c3-3f43-7501-ad66-9432e475b23f',
    text: { verbosity: 'low' },
    client_metadata: { session_id: '01a220c3' },
    input: [
      {
        type: 'message',
        id: 'msg_0',
        role: 'developer',
        content: [{ type: 'input_text', text: 'You are Codex, a coding agent.' }],
      },
      ...input,
    ],
    tools: [
      {
        type: 'function',
        name: 'exec_command',
        description: 'Runs a command in a PTY.',
        strict: false,
        parameters: {
          type: 'object',
          properties: { cmd: { type: 'string' } },
          required: ['cmd'],
          additionalProperties: false,
        },
      },
      {
        type: 'custom',
        name: 'apply_patch',
        description:
          'The `apply_patch` tool can be used to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
        format: { type: 'grammar', syntax: 'lark', definition: PATCH_GRAMMAR },
      },
      {
        type: 'tool_search',
        execution: 'client',
        description: '# Tool discovery',
        parameters: {
          type: 'object',
          properties: { query: { type: 'string' } },
          required: ['query'],
          additionalProperties: false,
        },
      },
      { type: 'web_search', external_web_access: false, search_content_types: ['text', 'image'] },
      {
        type: 'namespace',
        name: 'multi_agent_v1',
        description: 'Tools for spawning and managing sub-agents.',
        tools: [
          {
            type: 'function',
            name: 'spawn_agent',
            description: 'Spawn a sub-agent.',
            parameters: { type: 'object', properties: { task: { type: 'string' } } },
          },
          { type: 'function', name: 'wait_agent', parameters: { type: 'object', properties: {} } },
        ],
      },
    ],
  };
}

const userTurn = {
  type: 'message',
  id: 'msg_1',
  role: 'user',
  content: [{ type: 'input_text', text: 'Add hello.txt, then start a reviewer.' }],
};

describe('Codex → Claude (Anthropic) on the translated lane', () => {
  it("answers 200: every tool offered in Anthropic's terms, web search as its own server tool (no warning)", async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/custom-tool-call.chunks.txt')] });
    const res = await post(codexRequest('anthropic/claude-sonnet-5-5', [userTurn]));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBeNull();
    const sent = upstream.last.body;
    expect(sent.tools.map((tool: any) => tool.name)).toEqual([
      'exec_command',
      'apply_patch',
      'tool_search',
      'web_search',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__wait_agent',
    ]);
    expect(sent.tools[1].input_schema).toEqual({
      type: 'object',
      properties: { input: { type: 'string', description: 'The raw input of the tool.' } },
      required: ['input'],
      additionalProperties: false,
    });
    expect(sent.tools[1].description).toContain(PATCH_GRAMMAR);
    expect(sent.tools[3]).toEqual({ type: 'web_search_20250305', name: 'web_search' });

    const got = events(await res.text());
    const added = got.filter((e) => e.type === 'response.output_item.added').map((e) => e.item.type);
    expect(added).toEqual(['reasoning', 'custom_tool_call', 'function_call']);
    const deltas = got.filter((e) => e.type === 'response.custom_tool_call_input.delta').map((e) => e.delta);
    expect(deltas).toEqual(['*** Begin Patch\n*** Add File: hel', 'lo.txt\n+hi "there"\n*** End Patch\n']);
    const done = got.find((e) => e.type === 'response.custom_tool_call_input.done');
    expect(done?.input).toBe('*** Begin Patch\n*** Add File: hello.txt\n+hi "there"\n*** End Patch\n');
    const completed = got.find((e) => e.type === 'response.completed')!.response;
    expect(completed.output[1]).toMatchObject({
      type: 'custom_tool_call',
      call_id: 'toolu_01PaTcH5Vq8Lw2Xz',
      name: 'apply_patch',
      input: '*** Begin Patch\n*** Add File: hello.txt\n+hi "there"\n*** End Patch\n',
      status: 'completed',
    });
    expect(completed.output[2]).toMatchObject({
      type: 'function_call',
      call_id: 'toolu_01SpAwN2Lq8Xw',
      namespace: 'multi_agent_v1',
      name: 'spawn_agent',
      arguments: '{"task": "review"}',
    });
    expect(completed.output[0].encrypted_content).toMatch(/^mg1\./);
  });

  it('the next turn replays the signed thinking, the patch as tool_use {input} and its output as tool_result, the namespaced call under its flattened name', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/custom-tool-call.chunks.txt')] });
    const first = events(await (await post(codexRequest('anthropic/claude-sonnet-5-5', [userTurn]))).text());
    const output = first.find((e) => e.type === 'response.completed')!.response.output;

    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/text.chunks.txt')] });
    const res = await post(
      codexRequest('anthropic/claude-sonnet-5-5', [
        userTurn,
        ...output,
        {
          type: 'custom_tool_call_output',
          id: 'ctco_1',
          call_id: 'toolu_01PaTcH5Vq8Lw2Xz',
          output: 'Success. Updated the following files:\nA hello.txt\n',
        },
        {
          type: 'function_call_output',
          id: 'fco_1',
          call_id: 'toolu_01SpAwN2Lq8Xw',
          output: [{ type: 'input_text', text: 'agent-7 started' }],
        },
      ]),
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const [, assistant, results] = upstream.last.body.messages;
    expect(assistant.content).toEqual([
      {
        type: 'thinking',
        thinking: 'Add the file with a patch, then start a helper.',
        signature: 'EqMBCkYIBxgCKkBsig-custom-1==',
      },
      {
        type: 'tool_use',
        id: 'toolu_01PaTcH5Vq8Lw2Xz',
        name: 'apply_patch',
        input: { input: '*** Begin Patch\n*** Add File: hello.txt\n+hi "there"\n*** End Patch\n' },
      },
      { type: 'tool_use', id: 'toolu_01SpAwN2Lq8Xw', name: 'multi_agent_v1__spawn_agent', input: { task: 'review' } },
    ]);
    expect(results).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01PaTcH5Vq8Lw2Xz',
          content: 'Success. Updated the following files:\nA hello.txt\n',
        },
        // The conversation so far ends a cached prefix (automatic breakpoints, auto-cache.test.ts).
        {
          type: 'tool_result',
          tool_use_id: 'toolu_01SpAwN2Lq8Xw',
          content: 'agent-7 started',
          cache_control: { type: 'ephemeral' },
        },
      ],
    });
  });
});

describe('web search run by Claude, shown at the Responses door', () => {
  const request = {
    model: 'anthropic/claude-sonnet-5-5',
    input: 'Weather in NYC?',
    tools: [{ type: 'web_search' }],
    max_output_tokens: 1000,
  };
  const ANSWER = 'It is sunny and 22°C in New York City.';
  const PREFIX = "I'll check the current weather in New York City for you.";
  const citation = {
    type: 'url_citation',
    url: 'https://world-weather.info/forecast/usa/new_york/may-2025/',
    title: 'Weather in New York City',
    start_index: 0,
    end_index: ANSWER.length,
  };

  it('stream: a web_search_call item with its query and sources, then the answer with a url_citation annotation', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/server-tool.chunks.txt')] });
    const res = await post({ ...request, stream: true });
    expect(res.status).toBe(200);
    const got = events(await res.text());
    const search = got.find((e) => e.type === 'response.output_item.done' && e.item.type === 'web_search_call');
    expect(search?.item).toEqual({
      type: 'web_search_call',
      id: expect.stringMatching(/^ws_/),
      status: 'completed',
      action: {
        type: 'search',
        query: 'weather NYC today',
        queries: ['weather NYC today'],
        sources: [{ type: 'url', url: 'https://world-weather.info/forecast/usa/new_york/may-2025/' }],
      },
    });
    expect(got.filter((e) => e.type.startsWith('response.web_search_call.')).map((e) => e.type)).toEqual([
      'response.web_search_call.in_progress',
      'response.web_search_call.searching',
      'response.web_search_call.completed',
    ]);
    const added = got.find((e) => e.type === 'response.output_text.annotation.added');
    expect(added).toMatchObject({ output_index: 2, content_index: 0, annotation_index: 0, annotation: citation });
    const output = got.find((e) => e.type === 'response.completed')!.response.output;
    expect(output.map((item: any) => item.type)).toEqual(['message', 'web_search_call', 'message']);
    expect(output[0].content[0]).toEqual({ type: 'output_text', text: PREFIX, annotations: [] });
    expect(output[2].content[0]).toEqual({ type: 'output_text', text: ANSWER, annotations: [citation] });
  });

  it('JSON: the same items, and a replay of the web_search_call is left out of what Claude is sent', async () => {
    upstream.reply({
      kind: 'json',
      body: {
        id: 'msg_ws',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-5-5',
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 20, server_tool_use: { web_search_requests: 1 } },
        content: [
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'weather NYC today' } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 'srvtoolu_1',
            content: [
              {
                type: 'web_search_result',
                url: citation.url,
                title: citation.title,
                encrypted_content: 'Ev0',
                page_age: null,
              },
            ],
          },
          {
            type: 'text',
            text: ANSWER,
            citations: [
              {
                type: 'web_search_result_location',
                url: citation.url,
                title: citation.title,
                encrypted_index: 'Eo8',
                cited_text: 'Sunny, 22°C',
              },
            ],
          },
        ],
      },
    });
    const res = await post(request);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.output.map((item: any) => item.type)).toEqual(['web_search_call', 'message']);
    expect(body.output[1].content[0].annotations).toEqual([citation]);

    upstream.reply({
      kind: 'json',
      body: {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-5-5',
        content: [{ type: 'text', text: 'You are welcome.' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 4 },
      },
    });
    const next = await post({
      ...request,
      input: [{ role: 'user', content: 'Weather in NYC?' }, ...body.output, { role: 'user', content: 'Thanks' }],
    });
    expect(next.status).toBe(200);
    expect(upstream.last.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(upstream.last.body.messages[1].content).toEqual(ANSWER);
  });
});

describe('the Messages door to another vendor', () => {
  it("Anthropic's web search tool at a chat vendor is left out and named in x-modelgate-warning (200, not 400)", async () => {
    upstream.reply({
      kind: 'json',
      body: {
        id: 'c5',
        object: 'chat.completion',
        created: 1,
        model: 'deepseek-v4-pro',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      },
    });
    const res = await gw.fetch('/api/v1/messages', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({
        model: 'deepseek/deepseek-v4-pro',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Weather?' }],
        tools: [
          { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
          { name: 'Read', input_schema: { type: 'object', properties: {} } },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBe(
      'tool web_search_20250305 dropped: openai-compatible vendor deepseek has no hosted web search',
    );
    expect(upstream.last.body.tools.map((tool: any) => tool.function.name)).toEqual(['Read']);
  });
});

describe('web search run by Claude, shown at the chat door', () => {
  const citation = {
    type: 'url_citation',
    url_citation: {
      url: 'https://world-weather.info/forecast/usa/new_york/may-2025/',
      title: 'Weather in New York City',
      content: 'Sunny, 22°C',
    },
  };
  const PREFIX = "I'll check the current weather in New York City for you.";
  const ANSWER = 'It is sunny and 22°C in New York City.';
  const chat = (stream: boolean) =>
    gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'anthropic/claude-sonnet-5-5',
        stream,
        messages: [{ role: 'user', content: 'Weather in NYC?' }],
        web_search_options: {
          user_location: { type: 'approximate', approximate: { city: 'New York', country: 'US' } },
        },
      }),
    });

  it('web_search_options reaches Claude as its web search tool; the stream carries the cited page in delta.annotations', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/server-tool.chunks.txt')] });
    const res = await chat(true);
    expect(res.status).toBe(200);
    expect(upstream.last.body.tools).toEqual([
      {
        type: 'web_search_20250305',
        name: 'web_search',
        user_location: { type: 'approximate', city: 'New York', country: 'US' },
        cache_control: { type: 'ephemeral' },
      },
    ]);
    const chunks = (await res.text())
      .split('\n\n')
      .filter((b) => b.startsWith('data: {'))
      .map((b) => JSON.parse(b.slice(6)));
    const content = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(content).toBe(PREFIX + ANSWER);
    const annotations = chunks.flatMap((c) => c.choices[0]?.delta?.annotations ?? []);
    expect(annotations).toEqual([
      {
        ...citation,
        url_citation: {
          ...citation.url_citation,
          start_index: PREFIX.length,
          end_index: PREFIX.length + ANSWER.length,
        },
      },
    ]);
  });

  it('JSON: message.annotations index into the whole content', async () => {
    upstream.reply({
      kind: 'json',
      body: {
        id: 'msg_ws',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-5-5',
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 20 },
        content: [
          { type: 'text', text: PREFIX },
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'weather NYC today' } },
          {
            type: 'web_search_tool_result',
            tool_use_id: 'srvtoolu_1',
            content: [
              {
                type: 'web_search_result',
                url: citation.url_citation.url,
                title: citation.url_citation.title,
                encrypted_content: 'Ev0',
              },
            ],
          },
          {
            type: 'text',
            text: ANSWER,
            citations: [
              {
                type: 'web_search_result_location',
                url: citation.url_citation.url,
                title: citation.url_citation.title,
                encrypted_index: 'Eo8',
                cited_text: 'Sunny, 22°C',
              },
            ],
          },
        ],
      },
    });
    const res = await chat(false);
    expect(res.status).toBe(200);
    const message = (await res.json()).choices[0].message;
    expect(message.content).toBe(PREFIX + ANSWER);
    expect(message.annotations).toEqual([
      {
        ...citation,
        url_citation: {
          ...citation.url_citation,
          start_index: PREFIX.length,
          end_index: PREFIX.length + ANSWER.length,
        },
      },
    ]);
  });
});

describe('Codex → Gemini on the translated lane', () => {
  it('Gemini 3 gets the web search as Google Search beside the functions; its grounding comes back as a web_search_call item', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('gemini/google-search.chunks.txt')] });
    const res = await post(codexRequest('google/gemini-3.1-pro-preview', [userTurn]));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBeNull();
    const sent = upstream.last.body;
    expect(sent.tools[0].functionDeclarations.map((d: any) => d.name)).toEqual([
      'exec_command',
      'apply_patch',
      'tool_search',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__wait_agent',
    ]);
    expect(sent.tools[1]).toEqual({ googleSearch: {} });
    const output = events(await res.text()).find((e) => e.type === 'response.completed')!.response.output;
    expect(output.map((item: any) => item.type)).toEqual(['message', 'web_search_call']);
    expect(output[1].action).toMatchObject({
      type: 'search',
      query: 'UEFA Euro 2024 winner',
      queries: ['UEFA Euro 2024 winner', 'who won euro 2024'],
    });
    expect(output[1].action.sources).toHaveLength(2);
  });

  it('Gemini 2.5 cannot combine Google Search with functions: 200, the search left out and named in the warning', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('gemini/text.chunks.txt')] });
    const res = await post(codexRequest('google/gemini-2.5-pro', [userTurn]));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBe(
      'tool web_search dropped: gemini-2.5-pro cannot combine Google Search with function tools',
    );
    expect(upstream.last.body.tools).toHaveLength(1);
    await res.text();
  });
});

describe('Codex → an OpenAI-compatible chat vendor (DeepSeek) on the translated lane', () => {
  it('answers 200 with the hosted web search left out and named in x-modelgate-warning; the namespaced call comes back with its namespace', async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'deepseek-v4-pro',
          choices: [
            {
              index: 0,
              delta: {
                role: 'assistant',
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_a',
                    type: 'function',
                    function: { name: 'multi_agent_v1__spawn_agent', arguments: '' },
                  },
                ],
              },
              finish_reason: null,
            },
          ],
        },
        {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'deepseek-v4-pro',
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 0, function: { arguments: '{"task":"review"}' } }] },
              finish_reason: null,
            },
          ],
        },
        {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'deepseek-v4-pro',
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: 1,
                    id: 'call_b',
                    type: 'function',
                    function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch\\n' },
                  },
                ],
              },
              finish_reason: null,
            },
          ],
        },
        {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'deepseek-v4-pro',
          choices: [
            {
              index: 0,
              delta: { tool_calls: [{ index: 1, function: { arguments: '*** End Patch\\n"}' } }] },
              finish_reason: 'tool_calls',
            },
          ],
        },
        {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'deepseek-v4-pro',
          choices: [],
          usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 },
        },
      ]),
    });
    const res = await post(codexRequest('deepseek/deepseek-v4-pro', [userTurn]));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBe(
      'tool web_search dropped: openai-compatible vendor deepseek has no hosted web search',
    );
    expect(upstream.last.path).toBe('/ds/chat/completions');
    const sent = upstream.last.body;
    expect(sent.tools.map((tool: any) => tool.function.name)).toEqual([
      'exec_command',
      'apply_patch',
      'tool_search',
      'multi_agent_v1__spawn_agent',
      'multi_agent_v1__wait_agent',
    ]);
    expect(sent.tools.every((tool: any) => tool.type === 'function')).toBe(true);

    const got = events(await res.text());
    const output = got.find((e) => e.type === 'response.completed')!.response.output;
    expect(output).toMatchObject([
      {
        type: 'function_call',
        call_id: 'call_a',
        namespace: 'multi_agent_v1',
        name: 'spawn_agent',
        arguments: '{"task":"review"}',
      },
      { type: 'custom_tool_call', call_id: 'call_b', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
    ]);
  });

  it('a tool type of any characters left out is named in a header of visible ASCII (it was a 500: Node refuses other header bytes)', async () => {
    upstream.reply({
      kind: 'json',
      body: {
        id: 'c2',
        object: 'chat.completion',
        created: 1,
        model: 'deepseek-v4-pro',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      },
    });
    const res = await post({ model: 'deepseek/deepseek-v4-pro', input: 'hi', tools: [{ type: 'Ā\r\nx-injected: 1' }] });
    expect(res.status).toBe(200);
    const warning = res.headers.get('x-modelgate-warning')!;
    expect(warning).toMatch(/^[\x20-\x7e]+$/);
    expect(warning).toContain('\\u0100\\u000d\\u000ax-injected: 1');
    expect(res.headers.get('x-injected')).toBeNull();
  });

  it("DeepSeek's reasoning before a custom call comes back as a reasoning item and replays as reasoning_content on the tool-call turn", async () => {
    upstream.reply({
      kind: 'sse',
      chunks: openAiSse([
        {
          id: 'c3',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'deepseek-v4-pro',
          choices: [{ index: 0, delta: { role: 'assistant', reasoning_content: 'Patch it.' }, finish_reason: null }],
        },
        {
          id: 'c3',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'deepseek-v4-pro',
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_p',
                    type: 'function',
                    function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch\\n*** End Patch\\n"}' },
                  },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
        },
        {
          id: 'c3',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'deepseek-v4-pro',
          choices: [],
          usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 },
        },
      ]),
    });
    const first = events(await (await post(codexRequest('deepseek/deepseek-v4-pro', [userTurn]))).text());
    const output = first.find((e) => e.type === 'response.completed')!.response.output;
    expect(output.map((item: any) => item.type)).toEqual(['reasoning', 'custom_tool_call']);

    upstream.reply({
      kind: 'json',
      body: {
        id: 'c4',
        object: 'chat.completion',
        created: 1,
        model: 'deepseek-v4-pro',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Done.' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      },
    });
    const res = await post({
      ...codexRequest('deepseek/deepseek-v4-pro', [
        userTurn,
        ...output,
        { type: 'custom_tool_call_output', call_id: 'call_p', output: 'Success.' },
      ]),
      stream: false,
    });
    expect(res.status).toBe(200);
    const messages = upstream.last.body.messages;
    expect(messages.at(-2)).toMatchObject({
      role: 'assistant',
      reasoning_content: 'Patch it.',
      tool_calls: [
        {
          id: 'call_p',
          type: 'function',
          function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch\\n*** End Patch\\n"}' },
        },
      ],
    });
    expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_p', content: 'Success.' });
  });

  it('a JSON (non-streamed) answer names the dropped tool too', async () => {
    upstream.reply({
      kind: 'json',
      body: {
        id: 'c2',
        object: 'chat.completion',
        created: 1,
        model: 'deepseek-v4-pro',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
      },
    });
    const res = await post({ ...codexRequest('deepseek/deepseek-v4-pro', [userTurn]), stream: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBe(
      'tool web_search dropped: openai-compatible vendor deepseek has no hosted web search',
    );
    expect((await res.json()).output[0].content[0].text).toBe('ok');
  });
});
