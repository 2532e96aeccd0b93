// GET /gemini/v1beta/models/{model} — one catalog generation model in the Gemini API's shape; a bare Gemini name
// resolves as on generateContent.
import type { CatalogParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { GatewayError } from '../core/gateway-error.js';
import { geminiGatewayModelId } from '../formats/gemini/model-name.js';
import { geminiModelInfo } from '../formats/gemini/models-api.js';
import { pathModel } from './gemini-path-model.js';
import { requestModelsWithPresets } from './request-models.js';

export function geminiGetModel(parts: CatalogParts): Handler {
  return async (api, ctx) => {
    const models = await requestModelsWithPresets(parts, ctx);
    const id = geminiGatewayModelId(pathModel(api), models);
    const resolved = parts.catalog.resolve(models.canonical(id));
    // A path names a resource: a malformed id is a model that does not exist (404), not a bad request.
    if (!resolved.ok) throw new GatewayError(404, resolved.message, { model: id, reason: resolved.reason });
    if (resolved.entry.embedding)
      throw new GatewayError(404, `Model "${id}" is an embedding model: this door generates content`, {
        model: id,
        reason: 'not_a_generation_model',
      });
    // An alias is shown as listed, under its own name.
    ctx.body = geminiModelInfo(models.listedEntry(id) ?? resolved.entry);
  };
}
