// Anthropic bills code execution by container time (at least 5 minutes a container) and its Messages report no time:
// the native Messages lane counts the container an answer ran in, from the Message's `container` (message_delta's in a
// stream) or a code execution server tool call, and bills none when the request made code execution free.
import { describe, expect, it } from 'vitest';
import { nativeMessages } from '../../../src/providers/anthropic/native-messages.js';
import { codeExecutionUses, messageRanInContainer } from '../../../src/providers/anthropic/code-execution.js';
import type { ToolBilling } from '../../../src/core/tool-uses.js';
import { fixtureText, lastUsage, nativeContext, nativeReadings } from '../../helpers/native-replay.js';

const provider = {
  id: 'anthropic',
  kind: 'anthropic' as const,
  baseUrl: 'https://api.anthropic.com',
  apiKey: 'sk-ant-test',
};
const ctx = (toolBilling?: ToolBilling) => ({
  ...nativeContext(provider, 'anthropic/claude-sonnet-5-5', 'claude-sonnet-5-5'),
  ...(toolBilling ? { toolBilling } : {}),
});
// code-execution: 4200 prompt tokens, 350 output, a bash and a text editor call in one container.
const TOKENS = { promptTokens: 4200, completionTokens: 350, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

describe('Anthropic code execution containers', () => {
  it('an answer ran in a container when it names one or shows a code execution call', () => {
    expect(messageRanInContainer({ container: { id: 'container_1' }, content: [] })).toBe(true);
    for (const name of ['code_execution', 'bash_code_execution', 'text_editor_code_execution']) {
      expect(
        messageRanInContainer({ container: null, content: [{ type: 'server_tool_use', id: 's', name, input: {} }] }),
        name,
      ).toBe(true);
    }
    expect(
      messageRanInContainer({
        container: null,
        content: [
          { type: 'server_tool_use', name: 'web_search' },
          { type: 'text', text: 'x' },
        ],
      }),
    ).toBe(false);
    expect(codeExecutionUses(true, undefined)).toEqual({ code_execution: 1 });
    expect(codeExecutionUses(true, { codeExecutionFree: true })).toBeUndefined();
    expect(codeExecutionUses(false, undefined)).toBeUndefined();
  });

  it('JSON: one container, however many calls ran in it; none when the request made it free', () => {
    const body = Buffer.from(fixtureText('anthropic', 'code-execution.json'));
    expect(nativeMessages.readJson(body, ctx()).reading.usage).toEqual({ ...TOKENS, toolUses: { code_execution: 1 } });
    expect(nativeMessages.readJson(body, ctx({ codeExecutionFree: true })).reading.usage).toEqual(TOKENS);
  });

  it("stream: message_delta's usage carries the container; a stream cut before it reports the container its calls showed", () => {
    const text = fixtureText('anthropic', 'code-execution.chunks.txt');
    expect(lastUsage(nativeReadings(nativeMessages, ctx(), text))).toEqual({
      ...TOKENS,
      toolUses: { code_execution: 1 },
    });
    const cut = nativeReadings(nativeMessages, ctx(), text, '"message_delta"');
    expect(lastUsage(cut)).toEqual({ ...TOKENS, completionTokens: 2, toolUses: { code_execution: 1 } });
    expect(cut.flatMap((r) => (r.toolUses ? [r.toolUses] : []))).toEqual([{ code_execution: 1 }]);
    expect(lastUsage(nativeReadings(nativeMessages, ctx({ codeExecutionFree: true }), text))).toEqual(TOKENS);
  });
});
