// GET /gemini/v1beta/models — the catalog's generation models in the Gemini API's shape, paged as Google pages.
import type { CatalogParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { GeminiModelListing } from '../formats/gemini/models-api.js';
import { queryString } from './query-params.js';
import { requestModelsWithPresets } from './request-models.js';

export function geminiListModels(parts: CatalogParts): Handler {
  const listing = new GeminiModelListing(parts.catalog.listed());
  return async (api, ctx) => {
    const size = queryString(api, 'pageSize');
    // Validated by the document (an integer from 1 to 1000).
    const models = await requestModelsWithPresets(parts, ctx);
    // An organization with aliases or presets of its own has its own listing (rare: the catalog's is built once).
    const shown = models.hasOwnEntries ? new GeminiModelListing(models.listed()) : listing;
    ctx.body = shown.page(size === undefined ? undefined : Number(size), queryString(api, 'pageToken'));
  };
}
