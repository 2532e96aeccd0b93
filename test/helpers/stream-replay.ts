// Test helpers: load recorded vendor fixtures and replay them through the SSE parser and a translator.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AdapterContext, ProviderConfig, StreamTranslator } from '../../src/providers/adapter.js';
import type { GenerationResult, StreamEvent } from '../../src/core/generation.js';
import { createSseParser } from '../../src/providers/sse/parse-sse.js';
import { DeltaRenderer } from '../../src/formats/chat-completions/render-delta.js';
import { buildCompletion } from '../../src/formats/chat-completions/build-completion.js';
import type { ReasoningDetail, ToolCall } from '../../src/formats/chat-completions/wire-types.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function loadJson(vendor: string, name: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES}${vendor}/${name}.json`, 'utf8'));
}

export function loadChunks(vendor: string, name: string): Uint8Array {
  return new Uint8Array(readFileSync(`${FIXTURES}${vendor}/${name}.chunks.txt`));
}

/** Feed bytes (optionally cut at the given offsets) through the SSE parser into the translator. */
export function replay(bytes: Uint8Array, translator: StreamTranslator, cuts: number[] = []): StreamEvent[] {
  const parser = createSseParser();
  const events: StreamEvent[] = [];
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let previous = 0;
  for (const point of [...points, bytes.length]) {
    for (const sse of parser.push(bytes.subarray(previous, point))) events.push(...translator.push(sse));
    previous = point;
  }
  for (const sse of parser.end()) events.push(...translator.push(sse));
  events.push(...translator.end());
  return events;
}

export interface Collected {
  ids: string[];
  content: string;
  reasoning: string;
  reasoningDetails: unknown[];
  toolCalls: Array<{ id?: string; name?: string; arguments: string }>;
  finishes: string[];
  usages: unknown[];
  errors: Array<{ code: string; message: string }>;
}

/** Fold translator output the way a chat-completions client would see it (the chat door's deltas). */
export function collect(events: StreamEvent[]): Collected {
  const out: Collected = {
    ids: [],
    content: '',
    reasoning: '',
    reasoningDetails: [],
    toolCalls: [],
    finishes: [],
    usages: [],
    errors: [],
  };
  const deltas = new DeltaRenderer();
  for (const event of events) {
    const delta = deltas.delta(event);
    if (delta) {
      out.content += delta.content ?? '';
      out.reasoning += delta.reasoning ?? '';
      out.reasoningDetails.push(...(delta.reasoning_details ?? []));
      for (const call of delta.tool_calls ?? []) {
        out.toolCalls[call.index] ??= { arguments: '' };
        const slot = out.toolCalls[call.index];
        if (call.id) slot.id = call.id;
        if (call.function?.name) slot.name = call.function.name;
        slot.arguments += call.function?.arguments ?? '';
      }
    }
    switch (event.type) {
      case 'upstream-id':
        out.ids.push(event.id);
        break;
      case 'finish':
        out.finishes.push(event.finishReason);
        break;
      case 'usage':
        out.usages.push(event.usage);
        break;
      case 'error':
        out.errors.push({ code: event.code, message: event.message });
        break;
    }
  }
  return out;
}

export function context(
  provider: Partial<ProviderConfig> & { id: string },
  model: Partial<AdapterContext['model']> = {},
  stream = false,
): AdapterContext {
  return {
    provider: { kind: 'openai-compatible', baseUrl: '', apiKey: 'sk-test-key', ...provider },
    model: { id: `${provider.id}/m`, upstreamModel: 'm', supportsReasoning: false, ...model },
    stream,
  };
}

/** A whole reply as a chat-completions client sees it (the chat door's message), in the shape tests compare. */
export interface CompletionView {
  content: string | null;
  reasoning?: string;
  reasoningDetails?: ReasoningDetail[];
  toolCalls?: ToolCall[];
  refusal?: string;
}

export function completionView(result: GenerationResult): CompletionView {
  const totals = {
    usage: { promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    costNanos: 0n,
    accessMode: 'credits' as const,
  };
  const message = buildCompletion(result, totals, { id: 'gen-test', model: 'm', provider: 'p', created: 0 }).choices[0]
    .message;
  const view: CompletionView = { content: message.content };
  if (message.reasoning) view.reasoning = message.reasoning;
  if (message.reasoning_details) view.reasoningDetails = message.reasoning_details;
  if (message.tool_calls) view.toolCalls = message.tool_calls;
  if (message.refusal) view.refusal = message.refusal;
  return view;
}
