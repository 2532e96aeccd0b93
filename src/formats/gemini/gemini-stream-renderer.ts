// The Gemini stream: one GenerateContentResponse chunk per batch of parts, the last one carrying finishReason and
// usageMetadata (Gemini CLI retries a stream whose last chunk has no finishReason). Nothing before the first part:
// Google sends none. A failure after the start is a chunk holding Google's error object, which the Gen AI SDKs raise.
// Framing (SSE `data:` lines or a JSON array) is the writer's; the keep-alive is whitespace, the only filler that both
// the SDKs' strict `data:` parser and a JSON array take.
import type { StreamEvent } from '../../core/generation.js';
import type { GenerationIdentity, SseFrame, StreamEnd, StreamRenderer } from '../../core/stream-renderer.js';
import { geminiStreamError } from './error-body.js';
import { GeminiPartAssembler } from './part-assembler.js';
import type { GeminiGenerateContentResponse, GeminiPart } from './wire-types.js';
import { toGeminiFinishReason, toGeminiUsage } from './wire-usage.js';

const NONE: SseFrame[] = [];

export function geminiChunk(
  identity: GenerationIdentity,
  parts: GeminiPart[],
  end?: Pick<GeminiGenerateContentResponse, 'usageMetadata'> & { finishReason: string },
): GeminiGenerateContentResponse {
  const candidate: GeminiGenerateContentResponse['candidates'][number] = {
    content: { role: 'model', parts },
    index: 0,
  };
  if (end) candidate.finishReason = end.finishReason;
  const chunk: GeminiGenerateContentResponse = {
    candidates: [candidate],
    modelVersion: identity.model,
    responseId: identity.id,
  };
  if (end?.usageMetadata) chunk.usageMetadata = end.usageMetadata;
  return chunk;
}

export class GeminiStreamRenderer implements StreamRenderer {
  readonly keepAlive = '\n';
  private readonly parts = new GeminiPartAssembler();

  constructor(private readonly identity: GenerationIdentity) {}

  start(): SseFrame[] {
    return NONE;
  }

  event(event: StreamEvent): SseFrame[] {
    const parts = this.parts.push(event);
    return parts.length === 0 ? NONE : [{ data: JSON.stringify(geminiChunk(this.identity, parts)) }];
  }

  end(end: StreamEnd): SseFrame[] {
    if (end.type === 'error') return [{ data: JSON.stringify(geminiStreamError(end.code, end.message)) }];
    const chunk = geminiChunk(this.identity, this.parts.finish(), {
      finishReason: toGeminiFinishReason(end.finishReason),
      usageMetadata: toGeminiUsage(end.totals.usage),
    });
    return [{ data: JSON.stringify(chunk) }];
  }
}
