// The embedding adapters' error texts pass through the same redaction as the chat adapters' (redact-credentials.ts):
// mapError for non-2xx answers and the UpstreamPayloadError of parseResponse for an error inside a 2xx body.
import type { EmbeddingAdapter, EmbeddingAdapters } from './embedding-adapter.js';
import { redactInfo, type Redact } from './redact-credentials.js';
import { UpstreamPayloadError } from './upstream-payload-error.js';

export function redactingEmbeddingAdapter(adapter: EmbeddingAdapter, redact: Redact): EmbeddingAdapter {
  return {
    buildRequests: (call, ctx) => adapter.buildRequests(call, ctx),
    parseResponse: (body, expected, call, ctx) => {
      try {
        return adapter.parseResponse(body, expected, call, ctx);
      } catch (err) {
        if (err instanceof UpstreamPayloadError) throw new UpstreamPayloadError(redactInfo(err.info, redact));
        throw err;
      }
    },
    mapError: (answer, ctx) => redactInfo(adapter.mapError(answer, ctx), redact),
    acceptsTokenInput: (provider) => adapter.acceptsTokenInput(provider),
  };
}

export function redactingEmbeddingAdapters(adapters: EmbeddingAdapters, redact: Redact): EmbeddingAdapters {
  const out: EmbeddingAdapters = {};
  for (const [kind, adapter] of Object.entries(adapters) as [keyof EmbeddingAdapters, EmbeddingAdapter | undefined][]) {
    if (adapter) out[kind] = redactingEmbeddingAdapter(adapter, redact);
  }
  return out;
}
