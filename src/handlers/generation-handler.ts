// The one generation handler behind every front door: it reads a request through its door's descriptor
// (formats/<door>/door.ts, made ready by door-request.ts: what it continues, the model, whether and how it streams,
// the facts for planning, the client's own request for the native lane, the parse into the internal request for the
// translated lane on demand, the renderers) and hands it to the pipeline's eight steps (serveGeneration), wrapped by
// the opt-in response cache (X-Modelgate-Cache).
import type { Config } from '../config.js';
import type { DoorCall, FrontDoor } from '../formats/shared/front-door.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import { principalOf } from '../http/authenticate.js';
import type { Handler } from '../http/openapi-router.js';
import { nativeWireOf } from '../http/native-wire.js';
import { useRateLimitHeaders } from '../http/rate-limit-exchange.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import type { ResponseState } from '../response-state/continue-response.js';
import { doorRequest } from '../http/door-request.js';
import { queryString } from './query-params.js';

/**
 * What a generation takes: the pipeline's parts, the response cache's, what an omitted `stream` means, and the
 * stored responses (absent: none are kept).
 */
export type GenerationHandlerParts = GenerationParts &
  HitParts & { config: Pick<Config, 'streamDefault' | 'guardrails'>; responseState?: ResponseState };

/** A door's generation handler; it names its door, so the operation map can be checked against the descriptors. */
export type GenerationHandler = Handler & { readonly door: FrontDoor<never> };

export function generationHandler<Body>(door: FrontDoor<Body>, parts: GenerationHandlerParts): GenerationHandler {
  const handler: Handler = async (api, ctx) => {
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
    const { request, framing } = await doorRequest(door, parts, {
      call,
      wire: nativeWireOf(ctx, body as object, GATEWAY_ONLY_FIELDS, door.clientHeaders(ctx.headers)),
      headers: ctx.headers,
      principal: principalOf(ctx),
    });
    return serveGenerationCached(parts, ctx, request, framing);
  };
  return Object.assign(handler, { door: door as FrontDoor<never> });
}
