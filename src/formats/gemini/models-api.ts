// The catalog as the Gemini API's Models service shows it (GET /v1beta/models, GET /v1beta/models/{model}), for Gen
// AI SDKs' `models.list()`/`get()`. Only generation models (this door does not embed). A Google model is named by its
// bare name (`models/gemini-3.5-flash`), every other by its gateway id (`models/anthropic/claude-sonnet-5-5`): the
// name Gemini clients put in the path. Paged as Google pages: `pageSize` (default 50, at most 1000) and an opaque
// `pageToken`, here the base64url of the next position in catalog order.
import type { CatalogEntry } from '../../catalog/types.js';
import { GatewayError } from '../../core/gateway-error.js';
import { geminiModelName } from './model-name.js';
import type { GeminiModel, GeminiModelList } from './wire-types.js';

export const DEFAULT_PAGE_SIZE = 50;
const METHODS = ['generateContent', 'streamGenerateContent', 'countTokens'];

export function geminiModelInfo(entry: CatalogEntry): GeminiModel {
  const name = geminiModelName(entry.id);
  return {
    name: `models/${name}`,
    baseModelId: name,
    version: entry.id,
    displayName: entry.name,
    description: entry.description ?? '',
    inputTokenLimit: entry.contextLength,
    outputTokenLimit: entry.maxOutputTokens ?? 0,
    supportedGenerationMethods: METHODS,
    thinking: entry.supportsReasoning,
  };
}

function tokenOf(position: number): string {
  return Buffer.from(String(position), 'utf8').toString('base64url');
}

function positionOf(token: string, size: number): number {
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const position = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(position > 0 && position < size) || tokenOf(position) !== token) {
    throw new GatewayError(400, 'Invalid pageToken: pass the nextPageToken of the previous page', {
      field: 'pageToken',
      reason: 'invalid_page_token',
    });
  }
  return position;
}

/** Generation models in catalog order, built once (the catalog is fixed for the life of the process). */
export class GeminiModelListing {
  private readonly models: readonly GeminiModel[];

  constructor(entries: readonly CatalogEntry[]) {
    this.models = entries.filter((entry) => !entry.embedding).map(geminiModelInfo);
  }

  page(pageSize: number | undefined, pageToken: string | undefined): GeminiModelList {
    const size = pageSize ?? DEFAULT_PAGE_SIZE;
    const start = pageToken === undefined || pageToken === '' ? 0 : positionOf(pageToken, this.models.length);
    const end = Math.min(this.models.length, start + size);
    const page: GeminiModelList = { models: this.models.slice(start, end) };
    if (end < this.models.length) page.nextPageToken = tokenOf(end);
    return page;
  }
}
