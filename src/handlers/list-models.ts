// GET /models: the catalog in the gateway's own shape (OpenRouter's), or in Anthropic's Models API shape when the
// request is Anthropic's (anthropic-version or x-api-key: Claude Code's model discovery, the Anthropic SDKs).
import type { CatalogParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { outputModalities, toWireModel } from '../catalog/wire-model.js';
import type { CatalogEntry } from '../catalog/types.js';
import { AnthropicModelListing, wantsAnthropicShape } from '../formats/messages/models-api.js';
import { queryString } from './query-params.js';
import { requestModelsWithPresets } from './request-models.js';

export function listModels(parts: CatalogParts): Handler {
  const wire = (entries: readonly CatalogEntry[]) =>
    JSON.stringify({
      data: entries.map((entry) => toWireModel(entry, (id) => parts.catalog.provider(id)?.name ?? id)),
    });
  // The catalog is fixed for the life of the process: serialize it once, and each filtered list once it is asked for.
  const all = wire(parts.catalog.listed());
  const filtered = new Map<string, string>();
  // Anthropic's listing holds the models the Messages API can call: no embedding models.
  const anthropic = new AnthropicModelListing(parts.catalog.listed().filter((entry) => !entry.embedding));
  return async (api, ctx) => {
    ctx.type = 'application/json';
    const models = await requestModelsWithPresets(parts, ctx);
    // An organization with aliases or presets of its own lists them too, made per request (few have any).
    const listed = models.hasOwnEntries ? models.listed() : undefined;
    if (wantsAnthropicShape(ctx.headers)) {
      const limit = queryString(api, 'limit');
      const shown = listed ? new AnthropicModelListing(listed.filter((entry) => !entry.embedding)) : anthropic;
      ctx.body = shown.page({
        // Validated by the document (an integer from 1 to 1000).
        limit: limit === undefined ? undefined : Number(limit),
        after_id: queryString(api, 'after_id'),
        before_id: queryString(api, 'before_id'),
      });
      return;
    }
    const asked = queryString(api, 'output_modalities')?.trim().toLowerCase();
    if (asked === undefined || asked === '' || asked === 'all') {
      ctx.body = listed ? wire(listed) : all;
      return;
    }
    // `text,embeddings` and `embeddings, text` are one filter: the wanted set, sorted, is the memo's key.
    const wanted = [
      ...new Set(
        asked
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean),
      ),
    ].sort();
    const key = wanted.join(',');
    if (listed) {
      ctx.body = wire(listed.filter((entry) => outputModalities(entry).some((m) => wanted.includes(m))));
      return;
    }
    let body = filtered.get(key);
    if (body === undefined) {
      body = wire(parts.catalog.listed().filter((entry) => outputModalities(entry).some((m) => wanted.includes(m))));
      // Bounded: only keys made of known modalities are kept (a client cycling arbitrary values cannot grow it).
      if (wanted.every((m) => m === 'text' || m === 'embeddings')) filtered.set(key, body);
    }
    ctx.body = body;
  };
}
