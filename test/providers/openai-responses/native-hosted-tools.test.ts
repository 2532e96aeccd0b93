// OpenAI bills its hosted file_search tool per call and its code_interpreter per container (by size), on top of the
// tokens, and the Responses usage object counts neither: the native Responses lane reads them from the output items of
// recorded answers (one `file_search_call` per call; `code_interpreter_call.container_id` names the container).
import { describe, expect, it } from 'vitest';
import { nativeResponses } from '../../../src/providers/openai-responses/native-responses.js';
import { HostedToolCalls } from '../../../src/providers/openai-responses/hosted-tool-calls.js';
import type { ToolBilling } from '../../../src/core/tool-uses.js';
import { fixtureText, lastUsage, nativeContext, nativeReadings } from '../../helpers/native-replay.js';

const provider = {
  id: 'openai',
  kind: 'openai-compatible' as const,
  baseUrl: 'https://api.openai.com/v1',
  apiKey: 'sk-test-openai',
};
const ctx = (toolBilling?: ToolBilling) => ({
  ...nativeContext(provider, 'openai/gpt-5.4', 'gpt-5.4'),
  ...(toolBilling ? { toolBilling } : {}),
});
// native-responses-file-search: 6200 prompt tokens, 300 output (192 reasoning), two file_search_call items.
const FILE_SEARCH = {
  promptTokens: 6200,
  completionTokens: 300,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 192,
  toolUses: { file_search: 2 },
};
// native-responses-code-interpreter: 3100 prompt, 640 output (256 reasoning), two calls in one container.
const INTERPRETER = {
  promptTokens: 3100,
  completionTokens: 640,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 256,
};
const CONTAINER = 'cntr_6911b1d4c59081939f6a2b3c4d5e6f70';

describe('OpenAI Responses hosted tool calls', () => {
  it('counts each file search call once and each new container once, times its GB', () => {
    const calls = new HostedToolCalls({ containerGb: 4, knownContainers: ['cntr_old'] });
    calls.observe({ type: 'file_search_call', id: 'fs_1' });
    calls.observe({ type: 'file_search_call', id: 'fs_1' });
    calls.observe({ type: 'file_search_call' });
    calls.observe({ type: 'file_search_call' }, false); // a stream event without an id: left to the final Response
    calls.observe({ type: 'code_interpreter_call', id: 'ci_1', container_id: 'cntr_a' });
    calls.observe({ type: 'code_interpreter_call', id: 'ci_2', container_id: 'cntr_a' });
    calls.observe({ type: 'code_interpreter_call', id: 'ci_3', container_id: 'cntr_old' });
    calls.observe({ type: 'web_search_call', id: 'ws_1' });
    expect(calls.uses()).toEqual({ file_search: 2, code_interpreter: 4 });
    expect(new HostedToolCalls().uses()).toBeUndefined();
    // A call that names no container ran in a new one, unless the request brought its own.
    const unnamed = { type: 'code_interpreter_call', id: 'ci_1' };
    const fresh = new HostedToolCalls();
    fresh.observe(unnamed);
    expect(fresh.uses()).toEqual({ code_interpreter: 1 });
    const own = new HostedToolCalls({ knownContainers: ['cntr_mine'] });
    own.observe(unnamed);
    expect(own.uses()).toBeUndefined();
  });

  it('file search, JSON and stream: the usage carries both calls, each counted as its item is done', () => {
    expect(
      nativeResponses.readJson(Buffer.from(fixtureText('openai', 'native-responses-file-search.json')), ctx()).reading
        .usage,
    ).toEqual(FILE_SEARCH);
    const readings = nativeReadings(
      nativeResponses,
      ctx(),
      fixtureText('openai', 'native-responses-file-search.chunks.txt'),
    );
    expect(lastUsage(readings)).toEqual(FILE_SEARCH);
    expect(readings.flatMap((r) => (r.toolUses ? [r.toolUses] : [])).slice(0, 2)).toEqual([
      { file_search: 1 },
      { file_search: 2 },
    ]);
  });

  it('code interpreter: one container however many calls ran in it, times the GB the request asked for', () => {
    const json = Buffer.from(fixtureText('openai', 'native-responses-code-interpreter.json'));
    expect(nativeResponses.readJson(json, ctx()).reading.usage).toEqual({
      ...INTERPRETER,
      toolUses: { code_interpreter: 1 },
    });
    expect(nativeResponses.readJson(json, ctx({ containerGb: 4 })).reading.usage).toEqual({
      ...INTERPRETER,
      toolUses: { code_interpreter: 4 },
    });
    const readings = nativeReadings(
      nativeResponses,
      ctx({ containerGb: 4 }),
      fixtureText('openai', 'native-responses-code-interpreter.chunks.txt'),
    );
    expect(lastUsage(readings)).toEqual({ ...INTERPRETER, toolUses: { code_interpreter: 4 } });
  });

  it('code interpreter: a container the request named, or an earlier turn ran in, is not billed again', () => {
    const json = Buffer.from(fixtureText('openai', 'native-responses-code-interpreter.json'));
    expect(nativeResponses.readJson(json, ctx({ knownContainers: [CONTAINER] })).reading.usage).toEqual(INTERPRETER);
  });

  it("a stream cut before response.completed reports the container from the call's start, for the estimate", () => {
    const text = fixtureText('openai', 'native-responses-code-interpreter.chunks.txt');
    const readings = nativeReadings(
      nativeResponses,
      ctx({ containerGb: 4 }),
      text,
      '"response.code_interpreter_call.in_progress"',
    );
    expect(lastUsage(readings)).toBeUndefined();
    expect(readings.flatMap((r) => (r.toolUses ? [r.toolUses] : []))).toEqual([{ code_interpreter: 4 }]);
    expect(readings.at(-1)!.error?.code).toBe('server_error');
  });
});
