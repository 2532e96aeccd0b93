// The catalog as Anthropic's Models API shows it (GET /v1/models, GET /v1/models/{id}), for Claude Code's gateway
// model discovery and the Anthropic SDKs. Same route as the gateway's own listing: the request's headers choose the
// shape. Paging follows Anthropic's documentation: newest first; `after_id` pages forward, `before_id` backward;
// `first_id`/`last_id` are the cursors of the neighbouring pages; `has_more` looks in the requested direction.
import type { IncomingHttpHeaders } from 'node:http';
import type { CatalogEntry } from '../../catalog/types.js';
import { GatewayError } from '../../core/gateway-error.js';

type Schemas = import('../../../generated/openapi-types.js').components['schemas'];
export type AnthropicModelInfo = Schemas['AnthropicModelInfo'];
export type AnthropicModelList = Schemas['AnthropicModelList'];

/** Anthropic's default and largest page sizes. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;

/**
 * Whether a model-route request wants Anthropic's shape: it names an Anthropic API version (Claude Code and every
 * Anthropic SDK send one) or carries its credential the Anthropic way, in `x-api-key`. Authorization still wins
 * for authentication when both credentials are sent; the shape follows the Anthropic signal either way.
 */
export function wantsAnthropicShape(headers: IncomingHttpHeaders): boolean {
  return headers['anthropic-version'] !== undefined || headers['x-api-key'] !== undefined;
}

/** RFC 3339 in Anthropic's form: whole seconds, `Z` (`2025-02-19T00:00:00Z`). */
function rfc3339(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function anthropicModelInfo(entry: CatalogEntry): AnthropicModelInfo {
  return {
    type: 'model',
    id: entry.id,
    display_name: entry.name,
    created_at: rfc3339(entry.created),
    max_input_tokens: entry.contextLength,
    max_tokens: entry.maxOutputTokens ?? null,
    capabilities: null,
    lifecycle: 'active',
    line: null,
    deprecated_at: null,
    retires_at: null,
  };
}

export interface PageQuery {
  limit?: number;
  after_id?: string;
  before_id?: string;
}

/** The catalog newest first, built once (the catalog is fixed for the life of the process), with every id's place. */
export class AnthropicModelListing {
  private readonly models: readonly AnthropicModelInfo[];
  private readonly position = new Map<string, number>();

  constructor(entries: readonly CatalogEntry[]) {
    // Newest first as Anthropic lists; the catalog's own order breaks ties, so paging sees one fixed order.
    const ordered = entries
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => b.entry.created - a.entry.created || a.index - b.index);
    this.models = ordered.map(({ entry }) => anthropicModelInfo(entry));
    for (const [i, model] of this.models.entries()) this.position.set(model.id, i);
  }

  page(query: PageQuery): AnthropicModelList {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new GatewayError(
        400,
        `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${String(query.limit)}`,
        { field: 'limit' },
      );
    }
    if (query.after_id !== undefined && query.before_id !== undefined) {
      throw new GatewayError(400, 'Send after_id or before_id, not both', { field: 'before_id' });
    }
    let start: number;
    let end: number;
    let hasMore: boolean;
    if (query.before_id !== undefined) {
      end = this.cursor(query.before_id, 'before_id');
      start = Math.max(0, end - limit);
      hasMore = start > 0;
    } else {
      start = query.after_id === undefined ? 0 : this.cursor(query.after_id, 'after_id') + 1;
      end = Math.min(this.models.length, start + limit);
      hasMore = end < this.models.length;
    }
    const data = this.models.slice(start, end);
    return { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null };
  }

  private cursor(id: string, field: 'after_id' | 'before_id'): number {
    const at = this.position.get(id);
    if (at === undefined) throw new GatewayError(400, `${field} "${id}" is not the id of a listed model`, { field });
    return at;
  }
}
