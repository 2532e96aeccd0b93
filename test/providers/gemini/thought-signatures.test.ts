// Multi-turn with thinking: signatures Gemini returned must come back on the same part, unmodified.
import { describe, expect, it } from 'vitest';
import type { GenerationResult } from '../../../src/core/generation.js';
import {
  fromChat,
  type ChatCompletionRequest,
  type ChatMessage,
  type ReasoningDetail,
} from '../../helpers/chat-requests.js';
import { completionView } from '../../helpers/stream-replay.js';
import {
  buildBody,
  createGeminiStreamTranslator,
  parseGeminiCompletion,
  SKIP_SIGNATURE_VALIDATION,
} from '../../../src/providers/gemini/index.js';
import { collect, geminiContext, loadChunks, loadJson, replay } from './helpers.js';

type Part = Record<string, unknown>;

const GEMINI3 = {
  id: 'google/gemini-3.1-pro-preview',
  upstreamModel: 'gemini-3.1-pro-preview',
  supportsReasoning: true,
};

/** What a chat client that keeps the whole reply sends back as the assistant message. */
function assistantFrom(result: GenerationResult): ChatMessage {
  const reply = completionView(result);
  return {
    role: 'assistant',
    content: reply.content,
    ...(reply.toolCalls ? { tool_calls: reply.toolCalls } : {}),
    ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
    ...(reply.reasoningDetails ? { reasoning_details: reply.reasoningDetails } : {}),
  };
}

function modelTurns(messages: ChatMessage[], model = GEMINI3): Part[][] {
  const request = { model: model.id, messages } as ChatCompletionRequest;
  const { contents } = buildBody(fromChat(request), geminiContext(model)) as {
    contents: Array<{ role: string; parts: Part[] }>;
  };
  return contents.filter((c) => c.role === 'model').map((c) => c.parts);
}

describe('thought signatures across turns', () => {
  it('a Gemini 3 function call keeps its signature through the gateway and back (JSON reply)', () => {
    const raw = loadJson('tool-call-gemini3') as { candidates: Array<{ content: { parts: Part[] } }> };
    const result = parseGeminiCompletion(raw);
    const reply = completionView(result);
    const call = reply.toolCalls![0];
    expect(reply.reasoningDetails).toEqual([
      {
        type: 'reasoning.encrypted',
        data: raw.candidates[0].content.parts[0].thoughtSignature,
        id: call.id,
        format: 'google-gemini-v1',
        index: 0,
      },
    ]);
    const [parts] = modelTurns([
      { role: 'user', content: 'Weather in Oslo?' },
      assistantFrom(result),
      { role: 'tool', tool_call_id: call.id, content: '{"temperature_c":4}' },
    ]);
    expect(parts).toEqual([raw.candidates[0].content.parts[0]]);
  });

  it('the same holds for a streamed reply, and for parallel calls only the first carries it', () => {
    const got = collect(replay(loadChunks('parallel-tool-calls'), createGeminiStreamTranslator()));
    const toolCalls = got.toolCalls.map((c) => ({
      id: c.id!,
      type: 'function' as const,
      function: { name: c.name!, arguments: c.arguments },
    }));
    const parts = modelTurns([
      { role: 'user', content: 'Paris and Tokyo?' },
      {
        role: 'assistant',
        content: got.content,
        tool_calls: toolCalls,
        reasoning_details: got.reasoningDetails as ReasoningDetail[],
      },
      { role: 'tool', tool_call_id: toolCalls[0].id, content: '{"c":18}' },
      { role: 'tool', tool_call_id: toolCalls[1].id, content: '{"c":22}' },
    ])[0];
    const raw = loadJson('parallel-tool-calls') as { candidates: Array<{ content: { parts: Part[] } }> };
    expect(parts).toEqual(raw.candidates[0].content.parts);
  });

  it('signed thoughts and a signed answer come back as they were sent (Gemini 2.5)', () => {
    const raw = loadJson('reasoning') as { candidates: Array<{ content: { parts: Part[] } }> };
    const reply = parseGeminiCompletion(raw);
    expect(completionView(reply).reasoning).toBe(
      "**Counting the letters**\n\nI need to count the r's in strawberry: s-t-r-a-w-b-e-r-r-y.",
    );
    const model = { id: 'google/gemini-2.5-pro', upstreamModel: 'gemini-2.5-pro', supportsReasoning: true };
    const [parts] = modelTurns(
      [
        { role: 'user', content: 'r in strawberry?' },
        assistantFrom(reply),
        { role: 'user', content: 'And in raspberry?' },
      ],
      model,
    );
    // The unsigned thought summary is not replayed (Gemini needs only the signatures); the signed answer part is.
    expect(parts).toEqual([raw.candidates[0].content.parts[1]]);
  });

  it('a signed thought part is replayed as a thought, before the text', () => {
    const details: ReasoningDetail[] = [
      {
        type: 'reasoning.text',
        text: 'Plan: call the tool.',
        signature: 'c2lnLXRob3VnaHQ=',
        format: 'google-gemini-v1',
        index: 0,
      },
      { type: 'reasoning.encrypted', data: 'c2lnLXRleHQ=', format: 'google-gemini-v1', index: 1 },
    ];
    const [parts] = modelTurns([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'Answer.', reasoning_details: details },
    ]);
    expect(parts).toEqual([
      { text: 'Plan: call the tool.', thought: true, thoughtSignature: 'c2lnLXRob3VnaHQ=' },
      { text: 'Answer.', thoughtSignature: 'c2lnLXRleHQ=' },
    ]);
  });

  it('Gemini 3: a client that dropped reasoning_details gets the documented skip sentinel on the first call of each step', () => {
    const step = (id: string, city: string): ChatMessage[] => [
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ city }) } },
          { id: `${id}b`, type: 'function', function: { name: 'get_weather', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: id, content: 'ok' },
      { role: 'tool', tool_call_id: `${id}b`, content: 'ok' },
    ];
    const turns = modelTurns([{ role: 'user', content: 'q' }, ...step('c1', 'Oslo'), ...step('c2', 'Rome')]);
    expect(turns).toHaveLength(2);
    for (const parts of turns) {
      expect(parts[0].thoughtSignature).toBe(SKIP_SIGNATURE_VALIDATION);
      expect(parts[1]).not.toHaveProperty('thoughtSignature');
    }
  });

  it('Gemini 2.5 gets no sentinel; signatures of other formats or other calls are not replayed', () => {
    const assistant: ChatMessage = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: 'claude thinking',
          signature: 'anthropic-sig',
          format: 'anthropic-claude-v1',
          index: 0,
        },
        { type: 'reasoning.encrypted', data: 'gAAAA==', format: 'openai-responses-v1', index: 1 },
        { type: 'reasoning.encrypted', data: 'c2ln', id: 'other_call', format: 'google-gemini-v1', index: 2 },
        { type: 'reasoning.summary', summary: 's', format: 'google-gemini-v1', index: 3 },
      ],
    };
    const messages: ChatMessage[] = [
      { role: 'user', content: 'q' },
      assistant,
      { role: 'tool', tool_call_id: 'c1', content: '1' },
    ];
    const model25 = { id: 'google/gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', supportsReasoning: true };
    expect(modelTurns(messages, model25)).toEqual([[{ functionCall: { name: 'f', args: {} } }]]);
    expect(modelTurns(messages)).toEqual([
      [{ functionCall: { name: 'f', args: {} }, thoughtSignature: SKIP_SIGNATURE_VALIDATION }],
    ]);
  });
});
