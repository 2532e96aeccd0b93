import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { toWireModel } from '../catalog/wire-model.js';

export function listModels(deps: Deps): Handler {
  // The catalog is fixed for the life of the process: serialize it once.
  const body = JSON.stringify({ data: deps.catalog.list().map((entry) => toWireModel(entry, (id) => deps.catalog.provider(id)?.name ?? id)) });
  return (_api, ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  };
}
