// GET /responses/{id}, DELETE /responses/{id} and GET /responses/{id}/input_items: the caller's organization's stored
// responses (services/stored-responses.ts). Unknown, expired, deleted, another organization's, or served by a model
// the key may not use: the same 404, as OpenAI words it. DELETE /responses: all of the caller's own in that organization.
import { GatewayError } from '../core/gateway-error.js';
import { principalOf } from '../http/authenticate.js';
import type { Handler } from '../http/openapi-router.js';
import { turnOwnerOf } from '../response-state/turn-owner.js';
import { inputItemPage } from '../services/input-item-page.js';
import type { HandlerParts } from './handler-parts.js';
import { queryInt, queryString } from './query-params.js';

type StoredResponseParts = Pick<HandlerParts, 'storedResponses'>;

function notFound(id: string): GatewayError {
  return new GatewayError(404, `Response with id '${id}' not found.`, { param: 'response_id' });
}

export function getResponse(parts: StoredResponseParts): Handler {
  return async (api, ctx) => {
    const id = String(api.request.params.response_id);
    const turn = await parts.storedResponses?.find(turnOwnerOf(principalOf(ctx)), id);
    if (!turn) throw notFound(id);
    ctx.body = turn.response;
  };
}

export function deleteResponse(parts: StoredResponseParts): Handler {
  return async (api, ctx) => {
    const id = String(api.request.params.response_id);
    if (!(await parts.storedResponses?.delete(turnOwnerOf(principalOf(ctx)), id))) throw notFound(id);
    ctx.body = { id, object: 'response', deleted: true };
  };
}

export function purgeResponses(parts: StoredResponseParts): Handler {
  return async (_api, ctx) => {
    const { organizationId, memberUserId } = turnOwnerOf(principalOf(ctx));
    // With retention 0 nothing was ever stored: there is nothing to delete.
    const deleted = (await parts.storedResponses?.purge({ organizationId, memberUserId })) ?? 0;
    ctx.body = { object: 'response.purge', deleted };
  };
}

export function listResponseInputItems(parts: StoredResponseParts): Handler {
  return async (api, ctx) => {
    const id = String(api.request.params.response_id);
    const items = await parts.storedResponses?.inputItems(turnOwnerOf(principalOf(ctx)), id);
    if (!items) throw notFound(id);
    ctx.body = inputItemPage(items, {
      after: queryString(api, 'after'),
      before: queryString(api, 'before'),
      limit: queryInt(api, 'limit', 20),
      order: queryString(api, 'order') === 'asc' ? 'asc' : 'desc',
    });
  };
}
