// GET /models/{author}/{slug}/endpoints: a model's endpoints with their circuit-breaker state (shared by every
// instance when the breaker lives in Redis; this instance's own otherwise, or while Redis does not answer).
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { GatewayError } from '../core/gateway-error.js';
import { toWireEndpoint } from '../catalog/wire-model.js';
import { requestModels } from './request-models.js';

export function listModelEndpoints(parts: Pick<HandlerParts, 'breaker' | 'catalog' | 'providers'>): Handler {
  return async (api, ctx) => {
    const { author, slug } = api.request.params as { author: string; slug: string };
    // openapi-backend hands over the raw path segment: a slug with an encoded "/" arrives as "%2F".
    let id = `${author}/${slug}`;
    try {
      id = `${decodeURIComponent(String(author))}/${decodeURIComponent(String(slug))}`;
    } catch {
      // Not valid percent-encoding: no model has that id (looked up as sent, it is found by none).
    }
    const resolved = parts.catalog.resolve(requestModels(parts.catalog, ctx).canonical(id));
    // A path names a resource: a malformed id is a model that does not exist (404), not a bad request body.
    if (!resolved.ok) throw new GatewayError(404, resolved.message, { model: id, reason: resolved.reason });
    const { entry } = resolved;
    const endpoints = entry.endpoints ?? [
      { key: `${entry.id}@${entry.upstreamProvider}`, provider: entry.upstreamProvider, entry },
    ];
    await parts.breaker.refresh?.(endpoints.map((endpoint) => endpoint.key));
    ctx.body = {
      data: {
        id: entry.id,
        name: entry.name,
        created: entry.created,
        ...(entry.description !== undefined ? { description: entry.description } : {}),
        architecture: {
          input_modalities: entry.supportsImages ? ['text', 'image'] : ['text'],
          output_modalities: ['text'],
        },
        endpoints: endpoints.map((endpoint) => ({
          ...toWireEndpoint(endpoint, parts.catalog.provider(endpoint.provider)?.name ?? endpoint.provider),
          status: parts.breaker.state(endpoint.key),
          available: parts.providers.isConfigured(endpoint.provider),
        })),
      },
    };
  };
}
