// GET /gemini/v1beta/models — the catalog's generation models in the Gemini API's shape, paged as Google pages.
import type { CatalogParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { GeminiModelListing } from '../formats/gemini/models-api.js';
import { queryString } from './query-params.js';

export function geminiListModels(parts: CatalogParts): Handler {
  const listing = new GeminiModelListing(parts.catalog.listed());
  return (api, ctx) => {
    const size = queryString(api, 'pageSize');
    // Validated by the document (an integer from 1 to 1000).
    ctx.body = listing.page(size === undefined ? undefined : Number(size), queryString(api, 'pageToken'));
  };
}
