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
      ANTHROPIC_API_KEY: 'sk-ant-upstream', ANTHROPIC_BASE_URL: upstream.url,
      DEEPSEEK_API_KEY: 'sk-ds-upstream', DEEPSEEK_BASE_URL: `${upstream.url}/ds`,
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
  gw.fetch('/api/v1/responses', { method: 'POST', key, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

function events(text: string): Array<{ type: string; [field: string]: any }> {
  return text.split('\n\n').filter((block) => block.includes('data: ')).map((block) => JSON.parse(block.slice(block.indexOf('data: ') + 'data: '.length)));
}

const PATCH_GRAMMAR = 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF\nend_patch: "*** End Patch" LF?\n%import common.LF';

/** Codex 0.169's request to a catalog model without "lite" (research §4.2b), trimmed to one tool of each kind. */
function codexRequest(model: string, input: unknown[]) {
  return {
    model, stream: true, tool_choice: 'auto', parallel_tool_calls: true, reasoning: { effort: 'medium' }, store: false,
    include: ['reasoning.encrypted_content'], prompt_cache_key: '01a220c3-3f43-7501-ad66-9432e475b23f', text: { verbosity: 'low' },
    client_metadata: { session_id: '01a220c3' },
    input: [{ type: 'message', id: 'msg_0', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex, a coding agent.' }] }, ...input],
    tools: [
      { type: 'function', name: 'exec_command', description: 'Runs a command in a PTY.', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'], additionalProperties: false } },
      { type: 'custom', name: 'apply_patch', description: 'The `apply_patch` tool can be used to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.', format: { type: 'grammar', syntax: 'lark', definition: PATCH_GRAMMAR } },
      { type: 'tool_search', execution: 'client', description: '# Tool discovery', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false } },
      { type: 'web_search', external_web_access: false, search_content_types: ['text', 'image'] },
      { type: 'namespace', name: 'multi_agent_v1', description: 'Tools for spawning and managing sub-agents.', tools: [
        { type: 'function', name: 'spawn_agent', description: 'Spawn a sub-agent.', parameters: { type: 'object', properties: { task: { type: 'string' } } } },
        { type: 'function', name: 'wait_agent', parameters: { type: 'object', properties: {} } },
      ] },
    ],
  };
}

const userTurn = { type: 'message', id: 'msg_1', role: 'user', content: [{ type: 'input_text', text: 'Add hello.txt, then start a reviewer.' }] };

describe('Codex → Claude (Anthropic) on the translated lane', () => {
  it('answers 200: every tool offered in Anthropic\'s terms, web search as its own server tool (no warning)', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/custom-tool-call.chunks.txt')] });
    const res = await post(codexRequest('anthropic/claude-sonnet-5-5', [userTurn]));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBeNull();
    const sent = upstream.last.body;
    expect(sent.tools.map((tool: any) => tool.name)).toEqual(['exec_command', 'apply_patch', 'tool_search', 'web_search', 'multi_agent_v1__spawn_agent', 'multi_agent_v1__wait_agent']);
    expect(sent.tools[1].input_schema).toEqual({ type: 'object', properties: { input: { type: 'string', description: 'The raw input of the tool.' } }, required: ['input'], additionalProperties: false });
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
    expect(completed.output[1]).toMatchObject({ type: 'custom_tool_call', call_id: 'toolu_01PaTcH5Vq8Lw2Xz', name: 'apply_patch', input: '*** Begin Patch\n*** Add File: hello.txt\n+hi "there"\n*** End Patch\n', status: 'completed' });
    expect(completed.output[2]).toMatchObject({ type: 'function_call', call_id: 'toolu_01SpAwN2Lq8Xw', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{"task": "review"}' });
    expect(completed.output[0].encrypted_content).toMatch(/^mg1\./);
  });

  it('the next turn replays the signed thinking, the patch as tool_use {input} and its output as tool_result, the namespaced call under its flattened name', async () => {
    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/custom-tool-call.chunks.txt')] });
    const first = events(await (await post(codexRequest('anthropic/claude-sonnet-5-5', [userTurn]))).text());
    const output = first.find((e) => e.type === 'response.completed')!.response.output;

    upstream.reply({ kind: 'sse', chunks: [fixture('anthropic/text.chunks.txt')] });
    const res = await post(codexRequest('anthropic/claude-sonnet-5-5', [
      userTurn, ...output,
      { type: 'custom_tool_call_output', id: 'ctco_1', call_id: 'toolu_01PaTcH5Vq8Lw2Xz', output: 'Success. Updated the following files:\nA hello.txt\n' },
      { type: 'function_call_output', id: 'fco_1', call_id: 'toolu_01SpAwN2Lq8Xw', output: [{ type: 'input_text', text: 'agent-7 started' }] },
    ]));
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const [, assistant, results] = upstream.last.body.messages;
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'Add the file with a patch, then start a helper.', signature: 'EqMBCkYIBxgCKkBsig-custom-1==' },
      { type: 'tool_use', id: 'toolu_01PaTcH5Vq8Lw2Xz', name: 'apply_patch', input: { input: '*** Begin Patch\n*** Add File: hello.txt\n+hi "there"\n*** End Patch\n' } },
      { type: 'tool_use', id: 'toolu_01SpAwN2Lq8Xw', name: 'multi_agent_v1__spawn_agent', input: { task: 'review' } },
    ]);
    expect(results).toEqual({ role: 'user', content: [
      { type: 'tool_result', tool_use_id: 'toolu_01PaTcH5Vq8Lw2Xz', content: 'Success. Updated the following files:\nA hello.txt\n' },
      // The conversation so far ends a cached prefix (automatic breakpoints, auto-cache.test.ts).
      { type: 'tool_result', tool_use_id: 'toolu_01SpAwN2Lq8Xw', content: 'agent-7 started', cache_control: { type: 'ephemeral' } },
    ] });
  });
});

describe('Codex → an OpenAI-compatible chat vendor (DeepSeek) on the translated lane', () => {
  it('answers 200 with the hosted web search left out and named in x-modelgate-warning; the namespaced call comes back with its namespace', async () => {
    upstream.reply({ kind: 'sse', chunks: openAiSse([
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-pro', choices: [{ index: 0, delta: { role: 'assistant', tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'multi_agent_v1__spawn_agent', arguments: '' } }] }, finish_reason: null }] },
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-pro', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"task":"review"}' } }] }, finish_reason: null }] },
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-pro', choices: [{ index: 0, delta: { tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'apply_patch', arguments: '{"input":"*** Begin Patch\\n' } }] }, finish_reason: null }] },
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-pro', choices: [{ index: 0, delta: { tool_calls: [{ index: 1, function: { arguments: '*** End Patch\\n"}' } }] }, finish_reason: 'tool_calls' }] },
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-v4-pro', choices: [], usage: { prompt_tokens: 900, completion_tokens: 40, total_tokens: 940 } },
    ]) });
    const res = await post(codexRequest('deepseek/deepseek-v4-pro', [userTurn]));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBe('tool web_search dropped: openai-compatible vendor deepseek has no hosted web search');
    expect(upstream.last.path).toBe('/ds/chat/completions');
    const sent = upstream.last.body;
    expect(sent.tools.map((tool: any) => tool.function.name)).toEqual(['exec_command', 'apply_patch', 'tool_search', 'multi_agent_v1__spawn_agent', 'multi_agent_v1__wait_agent']);
    expect(sent.tools.every((tool: any) => tool.type === 'function')).toBe(true);

    const got = events(await res.text());
    const output = got.find((e) => e.type === 'response.completed')!.response.output;
    expect(output).toMatchObject([
      { type: 'function_call', call_id: 'call_a', namespace: 'multi_agent_v1', name: 'spawn_agent', arguments: '{"task":"review"}' },
      { type: 'custom_tool_call', call_id: 'call_b', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch\n' },
    ]);
  });

  it('a JSON (non-streamed) answer names the dropped tool too', async () => {
    upstream.reply({ kind: 'json', body: { id: 'c2', object: 'chat.completion', created: 1, model: 'deepseek-v4-pro', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 } } });
    const res = await post({ ...codexRequest('deepseek/deepseek-v4-pro', [userTurn]), stream: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-modelgate-warning')).toBe('tool web_search dropped: openai-compatible vendor deepseek has no hosted web search');
    expect((await res.json()).output[0].content[0].text).toBe('ok');
  });
});
