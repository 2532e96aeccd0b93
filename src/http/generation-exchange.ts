// The HTTP side of one generation: what the pipeline needs of the Koa request (the authenticated principal, the
// tracking and trace headers, a watch on the client's connection), and the pipeline's response port written onto
// Koa's response: both lanes' streams through the one stream writer (write-stream.ts). The pipeline itself knows no
// Koa.
import type { Context } from 'koa';
import type { StreamFraming } from '../core/stream-renderer.js';
import type { GenerationClient, GenerationResponse } from '../pipeline/serve-generation.js';
import { clientTraceHeaders } from '../observability/client-trace-context.js';
import { requestTraceOf } from '../observability/request-span.js';
import { principalOf } from './authenticate.js';
import { abortOnDisconnect } from './abort-on-disconnect.js';
import { setRateHeaders } from './rate-limit-exchange.js';
import { trackingHeaders } from './tracking-headers.js';
import { writeStream } from './write-stream.js';

export function generationClient(ctx: Context): GenerationClient {
  return {
    principal: principalOf(ctx),
    tracking: trackingHeaders(ctx),
    clientTrace: clientTraceHeaders(ctx.req.headers),
    requestTrace: requestTraceOf(ctx),
    watchConnection: () => abortOnDisconnect(ctx),
  };
}

/** `framing`: how a stream's frames are written (the Gemini door's JSON array without `alt=sse`). */
export function generationResponse(ctx: Context, framing: StreamFraming = 'sse'): GenerationResponse {
  return {
    headers(headers) {
      for (const name of Object.keys(headers)) ctx.set(name, headers[name]);
    },
    rate(report) {
      setRateHeaders(ctx, report);
    },
    json(body) {
      ctx.body = body;
    },
    jsonBytes(body) {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = body;
    },
    stream(source, keepAliveMs) {
      return writeStream(ctx, { framing, keepAliveMs }, source);
    },
  };
}
