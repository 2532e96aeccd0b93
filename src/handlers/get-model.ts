// GET /models/{model_id}: one catalog model, as GET /models lists it (OpenAI's retrieve route), or in Anthropic's
// Models API shape for an Anthropic request, where a bare Claude name resolves as on POST /messages.
import type { CatalogParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { GatewayError } from '../core/gateway-error.js';
import { toWireModel } from '../catalog/wire-model.js';
import { anthropicModelInfo, wantsAnthropicShape } from '../formats/messages/models-api.js';
import { gatewayModelId } from '../formats/messages/model-name.js';
import { requestModelsWithPresets } from './request-models.js';

export function getModel(parts: CatalogParts): Handler {
  return async (api, ctx) => {
    // openapi-backend hands over the raw path segment: the SDKs send the id's "/" as "%2F".
    let id = String((api.request.params as { model_id: string }).model_id);
    try {
      id = decodeURIComponent(id);
    } catch {
      // Not valid percent-encoding: looked up as sent, no model has that id.
    }
    const anthropic = wantsAnthropicShape(ctx.headers);
    const models = await requestModelsWithPresets(parts, ctx);
    const asked = anthropic ? gatewayModelId(models, id) : id;
    const resolved = parts.catalog.resolve(models.canonical(asked));
    // A path names a resource: a malformed id is a model that does not exist (404), not a bad request.
    if (!resolved.ok) throw new GatewayError(404, resolved.message, { model: id, reason: resolved.reason });
    // An alias is shown as listed: under its own id, naming the model it stands for.
    const entry = models.listedEntry(asked) ?? resolved.entry;
    ctx.body = anthropic
      ? anthropicModelInfo(entry)
      : toWireModel(entry, (provider) => parts.catalog.provider(provider)?.name ?? provider);
  };
}
