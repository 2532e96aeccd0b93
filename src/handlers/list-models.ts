// GET /models: the catalog in the gateway's own shape (OpenRouter's), or in Anthropic's Models API shape when the
// request is Anthropic's (anthropic-version or x-api-key: Claude Code's model discovery, the Anthropic SDKs).
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { toWireModel } from '../catalog/wire-model.js';
import { AnthropicModelListing, wantsAnthropicShape } from '../formats/messages/models-api.js';
import { queryString } from './query-params.js';

export function listModels(parts: Pick<HandlerParts, 'catalog'>): Handler {
  // The catalog is fixed for the life of the process: serialize it once.
  const body = JSON.stringify({ data: parts.catalog.list().map((entry) => toWireModel(entry, (id) => parts.catalog.provider(id)?.name ?? id)) });
  const anthropic = new AnthropicModelListing(parts.catalog.list());
  return (api, ctx) => {
    ctx.type = 'application/json';
    if (!wantsAnthropicShape(ctx.headers)) {
      ctx.body = body;
      return;
    }
    const limit = queryString(api, 'limit');
    ctx.body = anthropic.page({
      // Validated by the document (an integer from 1 to 1000).
      limit: limit === undefined ? undefined : Number(limit),
      after_id: queryString(api, 'after_id'),
      before_id: queryString(api, 'before_id'),
    });
  };
}
