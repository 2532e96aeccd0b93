// The one generation handler behind every front door: it reads a request through its door's descriptor
// (formats/<door>/door.ts) — the model, whether and how it streams, the facts for planning, the client's own request
// for the native lane, the parse into the internal request for the translated lane (on demand), the renderers — and
// hands it to the pipeline's eight steps (serveGeneration), wrapped by the opt-in response cache (X-Modelgate-Cache).
import { sessionBudgetOf } from '../billing/session-budget-header.js';
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
import { queryString } from './query-params.js';
import type { OrganizationModels } from '../catalog/organization-models.js';
import { requestModels } from './request-models.js';
import type { RequestFacts } from '../core/request-facts.js';

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
    // The organization's own aliases name catalog models: from here on the request names the catalog's id.
    const models = requestModels(parts.catalog, ctx);
    const settings = { catalog: models, streamDefault: parts.config.streamDefault };
    const model = models.canonical(door.modelOf(call, settings));
    const framing = door.streamOf(call, settings);
    const stream = framing !== undefined;
    const autoCache = autoCacheWanted(ctx.headers);
    return serveGenerationCached(
      parts,
      ctx,
      {
        apiFormat: door.apiFormat,
        protocol: door.protocol,
        facts: models.hasOwnAliases ? withCatalogIds(door.readFacts(body, model), models) : door.readFacts(body, model),
        wire: nativeWireOf(ctx, body as object, GATEWAY_ONLY_FIELDS, door.clientHeaders(ctx.headers)),
        translate: () => door.parse(body, { model, stream, autoCache }),
        stream,
        ...door.renderers(body),
        sessionKey: door.sessionKey(body, ctx.headers),
        sessionBudgetNanos: sessionBudgetOf(ctx.headers),
      },
      framing,
    );
  };
  return Object.assign(handler, { door: door as FrontDoor<never> });
}

/** The request's model and fallback models as catalog ids, where they name the organization's aliases. */
function withCatalogIds(facts: RequestFacts, models: OrganizationModels): RequestFacts {
  const named = { ...facts, model: models.canonical(facts.model) };
  if (facts.models !== undefined) named.models = facts.models.map((id) => models.canonical(id));
  return named;
}
