import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { outputModalities, toWireModel } from '../catalog/wire-model.js';
import type { CatalogEntry } from '../catalog/types.js';
import { queryString } from './query-params.js';

export function listModels(parts: Pick<HandlerParts, 'catalog'>): Handler {
  const wire = (entries: readonly CatalogEntry[]) =>
    JSON.stringify({ data: entries.map((entry) => toWireModel(entry, (id) => parts.catalog.provider(id)?.name ?? id)) });
  // The catalog is fixed for the life of the process: serialize it once, and each filtered list once it is asked for.
  const all = wire(parts.catalog.list());
  const filtered = new Map<string, string>();
  return (api, ctx) => {
    const asked = queryString(api, 'output_modalities')?.trim().toLowerCase();
    ctx.type = 'application/json';
    if (asked === undefined || asked === '' || asked === 'all') {
      ctx.body = all;
      return;
    }
    // `text,embeddings` and `embeddings, text` are one filter: the wanted set, sorted, is the memo's key.
    const wanted = [...new Set(asked.split(',').map((m) => m.trim()).filter(Boolean))].sort();
    const key = wanted.join(',');
    let body = filtered.get(key);
    if (body === undefined) {
      body = wire(parts.catalog.list().filter((entry) => outputModalities(entry).some((m) => wanted.includes(m))));
      // Bounded: only keys made of known modalities are kept (a client cycling arbitrary values cannot grow it).
      if (wanted.every((m) => m === 'text' || m === 'embeddings')) filtered.set(key, body);
    }
    ctx.body = body;
  };
}
