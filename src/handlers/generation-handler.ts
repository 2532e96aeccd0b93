// The one generation handler behind every front door: it reads a request through its door's descriptor
// (formats/<door>/door.ts) — the model, whether and how it streams, the facts for planning, the client's own request
// for the native lane, the parse into the internal request for the translated lane (on demand), the renderers — and
// hands it to the pipeline's eight steps (serveGeneration), wrapped by the opt-in response cache (X-Modelgate-Cache).
import type { Config } from '../config.js';
import type { DoorCall, FrontDoor } from '../formats/shared/front-door.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import { autoCacheWanted } from '../formats/shared/auto-cache-header.js';
import type { Handler } from '../http/openapi-router.js';
import { nativeWireOf } from '../http/native-wire.js';
import { useRateLimitHeaders } from '../http/rate-limit-exchange.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import { doorRequest } from './door-request.js';
import { queryString } from './query-params.js';

/** What a generation takes: the pipeline's parts, the response cache's, and what an omitted `stream` means. */
export type GenerationHandlerParts = GenerationParts & HitParts & { config: Pick<Config, 'streamDefault'> };

/** A door's generation handler; it names its door, so the operation map can be checked against the descriptors. */
export type GenerationHandler = Handler & { readonly door: FrontDoor<never> };

export function generationHandler<Body>(door: FrontDoor<Body>, parts: GenerationHandlerParts): GenerationHandler {
  const handler: Handler = (api, ctx) => {
    useRateLimitHeaders(ctx, door.rateLimitHeaders);
    const body = api.request.requestBody as Body;
    const params = api.request.params as Record<string, string | undefined>;
    const call: DoorCall<Body> = {
      body,
      operationId: String(api.operation.operationId),
      pathParam: (name) => params[name],
      query: (name) => queryString(api, name),
      headers: ctx.headers,
    };
    const settings = { catalog: parts.catalog, streamDefault: parts.config.streamDefault };
    const model = door.modelOf(call, settings);
    const framing = door.streamOf(call, settings);
    const stream = framing !== undefined;
    const autoCache = autoCacheWanted(ctx.headers);
    const wire = nativeWireOf(ctx, body as object, GATEWAY_ONLY_FIELDS, door.clientHeaders(ctx.headers));
    return serveGenerationCached(
      parts,
      ctx,
      doorRequest({ door, body, model, stream, wire, headers: ctx.headers, autoCache }),
      framing,
    );
  };
  return Object.assign(handler, { door: door as FrontDoor<never> });
}
