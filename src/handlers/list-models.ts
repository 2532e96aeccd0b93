import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { toWireModel } from '../catalog/wire-model.js';

export function listModels(parts: Pick<HandlerParts, 'catalog'>): Handler {
  // The catalog is fixed for the life of the process: serialize it once.
  const body = JSON.stringify({ data: parts.catalog.list().map((entry) => toWireModel(entry, (id) => parts.catalog.provider(id)?.name ?? id)) });
  return (_api, ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  };
}
