import { describe, expect, it } from 'vitest';
import { buildResponse } from '../../../src/formats/responses/build-response.js';
import { echoOf } from '../../../src/formats/responses/response-object.js';
import { decodeReasoningContent } from '../../../src/formats/responses/reasoning-content.js';
import { createAnthropicAdapter } from '../../../src/providers/anthropic/index.js';
import type { GenerationTotals } from '../../../src/core/stream-renderer.js';
import { loadJson } from '../../helpers/stream-replay.js';
import { anthropicContext } from '../../providers/anthropic/anthropic-context.js';

const identity = { id: 'gen-2', model: 'anthropic/claude-test', created: 1732200000, provider: 'anthropic' };
const totals: GenerationTotals = {
  usage: { promptTokens: 20, completionTokens: 5, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  costNanos: 0n,
  accessMode: 'pass',
};

describe('buildResponse', () => {
  it('a recorded Anthropic reply with thinking and a tool call: reasoning items, then the call; records round-trip', () => {
    const completion = createAnthropicAdapter().parseCompletion(
      loadJson('anthropic', 'thinking-tool-use'),
      anthropicContext(),
    );
    const body = {
      model: 'anthropic/claude-test',
      input: 'x',
      instructions: 'Be brief.',
      metadata: { k: 'v' },
      store: true,
    };
    const response = buildResponse(completion, totals, identity, echoOf(body), { encryptedReasoning: true });
    expect(response).toMatchObject({
      id: 'gen-2',
      object: 'response',
      status: 'completed',
      error: null,
      incomplete_details: null,
      instructions: 'Be brief.',
      metadata: { k: 'v' },
      store: false,
      previous_response_id: null,
      tool_choice: 'auto',
      tools: [],
      parallel_tool_calls: true,
      usage: { input_tokens: 20, output_tokens: 5, cost: 0, cost_details: { access_mode: 'pass', charged: false } },
    });
    const types = response.output.map((item) => item.type);
    expect(types.at(-1)).toBe('function_call');
    const records = response.output
      .filter((item) => item.type === 'reasoning')
      .flatMap((item) => decodeReasoningContent((item as { encrypted_content: string }).encrypted_content));
    expect(records).toEqual(completion.output.filter((block) => block.type === 'reasoning'));
  });

  it('finish length → incomplete; a refusal is a part of the message', () => {
    const response = buildResponse(
      {
        output: [
          { type: 'text', text: 'Part' },
          { type: 'refusal', text: 'No more.' },
        ],
        finishReason: 'length',
      },
      totals,
      identity,
      echoOf({ model: 'm', input: 'x' }),
      { encryptedReasoning: false },
    );
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output).toEqual([
      {
        type: 'message',
        id: 'msg_gen-2_0',
        status: 'completed',
        role: 'assistant',
        content: [
          { type: 'output_text', text: 'Part', annotations: [] },
          { type: 'refusal', refusal: 'No more.' },
        ],
      },
    ]);
  });
});
