// Steps 6 and 8 for streams: vendor SSE → translator → gateway chunks → client SSE.
// role chunk … content/reasoning/tool-call deltas … one finish (or error) chunk carrying usage … [DONE].
import type { Context } from 'koa';
import type { StreamTranslator } from '../providers/adapter.js';
import type { StreamErrorCode, StreamEvent } from '../core/generation.js';
import type { UpstreamResponse } from '../providers/http-client.js';
import { readSseBatches } from '../providers/sse/parse-sse.js';
import { SseWriter } from '../http/sse-writer.js';
import type { ChunkFactory } from './chunk-factory.js';
import type { GenerationMeter } from './generation-meter.js';
import type { Usage } from '../core/chat-types.js';

export interface StreamCompletionOptions {
  ctx: Context;
  upstream: UpstreamResponse;
  translator: StreamTranslator;
  meter: GenerationMeter;
  chunks: ChunkFactory;
  keepAliveMs: number;
  excludeReasoning: boolean;
  /** Aborted when the client went away. */
  signal: { readonly aborted: boolean };
  /** Usage (with cost) of the request as far as it went; called once, at the end. */
  finalUsage: () => Usage;
  /** Counts generated characters against the key's token rate; false ends the stream with `rate_limit`. */
  withinTokenRate: (generatedChars: number) => boolean;
}

export async function streamCompletion(options: StreamCompletionOptions): Promise<void> {
  const { ctx, upstream, translator, meter, chunks, signal } = options;
  const writer = new SseWriter(ctx.res, options.keepAliveMs);
  ctx.respond = false;
  writer.start();
  let failure: { code: StreamErrorCode; message: string } | undefined;

  const emit = async (events: StreamEvent[]): Promise<boolean> => {
    for (const event of events) {
      meter.observe(event);
      if (event.type === 'error') {
        failure = { code: event.code, message: event.message };
        return false;
      }
      if (event.type === 'delta') {
        const delta = options.excludeReasoning ? withoutReasoning(event.delta) : event.delta;
        if (Object.keys(delta).length > 0) {
          const full = writer.data(chunks.deltaJson(delta));
          if (full) await full;
        }
        if (!options.withinTokenRate(deltaChars(event.delta))) {
          failure = { code: 'rate_limit', message: 'Rate limit reached during generation: this key used its tokens-per-minute budget' };
          return false;
        }
      }
    }
    return true;
  };

  try {
    await writer.data(JSON.stringify(chunks.role()));
    let open = true;
    for await (const batch of readSseBatches(upstream.body)) {
      // The chunks translated from one upstream read leave in one socket write, at the end of that read: nothing
      // waits for a later one. (emit only awaits a full socket, and the writer uncorks before it waits.)
      writer.cork();
      try {
        for (const sse of batch) {
          open = await emit(translator.push(sse));
          if (!open) break;
        }
      } finally {
        writer.uncork();
      }
      if (!open) break;
    }
    if (open) await emit(translator.end());
  } catch (err) {
    if (signal.aborted || writer.closed) meter.abort();
    else {
      failure = { code: 'server_error', message: `Upstream stream failed: ${(err as Error)?.message ?? 'connection error'}` };
      // Usage the upstream reported before it failed (translators hold it until the end) is what it bills.
      for (const event of translator.end()) if (event.type === 'usage') meter.observe(event);
    }
  } finally {
    upstream.body.destroy();
  }

  if (failure) meter.fail(200, failure.code, failure.message);
  if (writer.closed || signal.aborted) {
    meter.abort();
    writer.end();
    return;
  }
  const usage = options.finalUsage();
  const last = failure ? chunks.error(failure.code, failure.message, usage) : chunks.finish(meter.finishReason ?? 'stop', usage);
  // The last chunk, [DONE] and the end of the response: one socket write.
  writer.cork();
  await writer.data(JSON.stringify(last));
  await writer.data('[DONE]');
  writer.end();
}

function deltaChars(delta: { content?: string | null; reasoning?: string | null; tool_calls?: { function?: { arguments?: string } }[] }): number {
  return (delta.content?.length ?? 0) + (delta.reasoning?.length ?? 0) +
    (delta.tool_calls ?? []).reduce((n, call) => n + (call.function?.arguments?.length ?? 0), 0);
}

function withoutReasoning(delta: StreamEvent & { type: 'delta' } extends { delta: infer D } ? D : never) {
  const { reasoning: _reasoning, reasoning_details: _details, ...rest } = delta as Record<string, unknown>;
  return rest as typeof delta;
}
