// What admission reserves for the other hosted tools a request offers, and what the answer's reader is told to bill
// them as the vendor does, read by each door from the request's own tools.
import { describe, expect, it } from 'vitest';
import { messagesRequestFacts } from '../../src/formats/messages/request-facts.js';
import { responsesRequestFacts } from '../../src/formats/responses/request-facts.js';
import { geminiRequestFacts } from '../../src/formats/gemini/request-facts.js';
import { DEFAULT_RESERVED_FILE_SEARCHES } from '../../src/formats/responses/hosted-tools.js';

const user = [{ role: 'user' as const, content: 'hi' }];
const responses = (body: Record<string, unknown>) => {
  const facts = responsesRequestFacts({ model: 'openai/m', input: 'hi', ...body } as never);
  return { reserve: facts.maxToolUses, billing: facts.toolBilling };
};

describe('hosted tool uses reserved for', () => {
  it('Responses file_search: max_tool_calls, else the default', () => {
    expect(responses({ tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }] }).reserve).toEqual({
      file_search: DEFAULT_RESERVED_FILE_SEARCHES,
    });
    expect(
      responses({ tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }], max_tool_calls: 3 }).reserve,
    ).toEqual({ file_search: 3 });
    expect(
      responses({
        input: [
          { type: 'additional_tools', tools: [{ type: 'file_search' }] },
          { role: 'user', content: 'hi' },
        ],
      }).reserve,
    ).toEqual({ file_search: DEFAULT_RESERVED_FILE_SEARCHES });
    expect(responses({ tools: [{ type: 'web_search' }, { type: 'function', name: 'f', parameters: {} }] })).toEqual({
      reserve: undefined,
      billing: undefined,
    });
  });

  it('Responses code_interpreter: one new container of the GB asked for; none in a container the request names', () => {
    expect(responses({ tools: [{ type: 'code_interpreter', container: { type: 'auto' } }] })).toEqual({
      reserve: { code_interpreter: 1 },
      billing: undefined,
    });
    expect(
      responses({ tools: [{ type: 'code_interpreter', container: { type: 'auto', memory_limit: '16g' } }] }),
    ).toEqual({ reserve: { code_interpreter: 16 }, billing: { containerGb: 16 } });
    expect(responses({ tools: [{ type: 'code_interpreter', container: 'cntr_abc' }] })).toEqual({
      reserve: undefined,
      billing: { knownContainers: ['cntr_abc'] },
    });
    // An earlier turn's container (auto mode reuses it): known, so not billed again; a new one is still reserved for.
    const earlier = {
      type: 'code_interpreter_call',
      id: 'ci_1',
      status: 'completed',
      code: 'print(1)',
      container_id: 'cntr_prev',
      outputs: null,
    };
    expect(
      responses({
        tools: [{ type: 'code_interpreter', container: { type: 'auto' } }],
        input: [{ role: 'user', content: 'hi' }, earlier],
      }),
    ).toEqual({ reserve: { code_interpreter: 1 }, billing: { knownContainers: ['cntr_prev'] } });
  });

  it('Messages code execution: one container; free (none, and the reader told) with web search or fetch 20260209 or later', () => {
    const facts = (tools: unknown[]) => {
      const f = messagesRequestFacts({ model: 'm', max_tokens: 100, messages: user, tools } as never, 'anthropic/m');
      return { reserve: f.maxToolUses, billing: f.toolBilling };
    };
    expect(facts([{ type: 'code_execution_20250825', name: 'code_execution' }])).toEqual({
      reserve: { code_execution: 1 },
      billing: undefined,
    });
    expect(
      facts([
        { type: 'code_execution_20260120', name: 'code_execution' },
        { type: 'web_search_20250305', name: 'web_search' },
      ]),
    ).toEqual({ reserve: { code_execution: 1 }, billing: undefined });
    for (const tool of ['web_search_20260209', 'web_fetch_20260209', 'web_fetch_20260318']) {
      expect(
        facts([
          { type: 'code_execution_20260120', name: 'code_execution' },
          { type: tool, name: tool.slice(0, 9) },
        ]),
        tool,
      ).toEqual({ reserve: undefined, billing: { codeExecutionFree: true } });
    }
    expect(facts([{ name: 'get_weather', input_schema: { type: 'object' } }])).toEqual({
      reserve: undefined,
      billing: undefined,
    });
  });

  it('Gemini: a Google Maps tool is one grounded prompt', () => {
    const gemini = (tools: unknown[]) =>
      geminiRequestFacts({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], tools } as never, 'google/m')
        .maxToolUses;
    expect(gemini([{ googleMaps: {} }])).toEqual({ maps_grounding: 1 });
    expect(gemini([{ google_maps: { enableWidget: true } }])).toEqual({ maps_grounding: 1 });
    expect(gemini([{ googleSearch: {} }])).toBeUndefined();
  });
});
