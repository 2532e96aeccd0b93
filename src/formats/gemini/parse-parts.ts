// Gemini user parts → internal user blocks: text, `inlineData` (images, PDFs, text files), `fileData` (images and
// PDFs by URI; the media type guessed from the extension when not given) and `functionResponse` → tool results.
// A part the translated lane cannot carry is a 400 that names it.
import type { DocumentBlock, ImageBlock, TextBlock, ToolResultBlock, UserBlock } from '../../core/content-blocks.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GeminiPart } from './wire-types.js';

export function invalidRequest(message: string, field: string, reason = 'invalid_request'): GatewayError {
  return new GatewayError(400, `Invalid request: ${message}`, { field, reason });
}

/** The part kinds this door reads; the keys beside them (`thought`, `thoughtSignature`, ...) are not kinds. */
export const PART_KINDS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'] as const;

/** A part's kind: the first known one it holds, else its first key that is not a known companion (for the 400). */
export function partKind(part: GeminiPart): string {
  const known = PART_KINDS.find((kind) => part[kind] !== undefined);
  if (known) return known;
  const companions = new Set(['thought', 'thoughtSignature', 'partMetadata', 'videoMetadata', 'mediaResolution']);
  return Object.keys(part).find((key) => !companions.has(key)) ?? 'empty';
}

export function unsupportedPart(kind: string, field: string): GatewayError {
  return invalidRequest(
    `${field}: "${kind}" parts are not supported for this model (only text, inlineData, fileData, functionCall and functionResponse are translated)`,
    field,
    'part_not_supported',
  );
}

const EXTENSION_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
};

function mediaTypeOfUri(uri: string): string | undefined {
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(uri)?.[1]?.toLowerCase();
  return extension ? EXTENSION_TYPES[extension] : undefined;
}

function inlineBlock(data: { mimeType: string; data: string }, field: string): ImageBlock | DocumentBlock {
  const mediaType = data.mimeType.trim().toLowerCase();
  if (mediaType.startsWith('image/')) return { type: 'image', source: { kind: 'base64', mediaType, data: data.data } };
  if (mediaType === 'application/pdf')
    return { type: 'document', source: { kind: 'base64', mediaType, data: data.data } };
  if (mediaType.startsWith('text/'))
    return { type: 'document', source: { kind: 'text', text: Buffer.from(data.data, 'base64').toString('utf8') } };
  throw invalidRequest(
    `${field}.inlineData.mimeType "${data.mimeType}" is not supported for this model (images, application/pdf and text/* are)`,
    `${field}.inlineData.mimeType`,
    'unsupported_media_type',
  );
}

function fileBlock(file: { mimeType?: string; fileUri: string }, field: string): ImageBlock | DocumentBlock {
  const mediaType = (file.mimeType?.trim().toLowerCase() || mediaTypeOfUri(file.fileUri)) ?? '';
  if (!/^https?:\/\//i.test(file.fileUri)) {
    throw invalidRequest(
      `${field}.fileData.fileUri must be an http(s) URL for this model (Google Files API URIs work with google/ models only)`,
      `${field}.fileData.fileUri`,
      'unsupported_file_uri',
    );
  }
  if (mediaType.startsWith('image/')) return { type: 'image', source: { kind: 'url', url: file.fileUri } };
  if (mediaType === 'application/pdf') return { type: 'document', source: { kind: 'url', url: file.fileUri } };
  throw invalidRequest(
    `${field}.fileData: media type "${mediaType || 'unknown'}" is not supported for this model (images and application/pdf are)`,
    `${field}.fileData.mimeType`,
    'unsupported_media_type',
  );
}

/** Gemini's convention: `{output}` is what the function returned, `{error}` how it failed; anything else is JSON. */
function resultContent(response: Record<string, unknown>): { text: string; isError: boolean } {
  const keys = Object.keys(response);
  if (keys.length === 1 && typeof response.output === 'string') return { text: response.output, isError: false };
  if (keys.length === 1 && typeof response.error === 'string') return { text: response.error, isError: true };
  return { text: JSON.stringify(response), isError: false };
}

/** The calls of the conversation not yet answered, by which a response without an id finds its call. */
export class PendingCalls {
  private readonly open: Array<{ id: string; name: string }> = [];

  add(id: string, name: string): void {
    this.open.push({ id, name });
  }

  answer(response: { id?: string; name: string }, field: string): string {
    const at = response.id
      ? this.open.findIndex((call) => call.id === response.id)
      : this.open.findIndex((call) => call.name === response.name);
    if (at >= 0) return this.open.splice(at, 1)[0].id;
    if (response.id) return response.id; // answered twice or never asked: the provider decides
    throw invalidRequest(
      `${field}.functionResponse "${response.name}" answers no earlier functionCall of that name`,
      `${field}.functionResponse`,
      'unknown_function_call',
    );
  }
}

export function userBlock(part: GeminiPart, field: string, calls: PendingCalls): UserBlock[] {
  const kind = partKind(part);
  if (part.thought === true)
    throw invalidRequest(`${field}: a thought part is only allowed in a model turn`, `${field}.thought`);
  switch (kind) {
    case 'text':
      return [{ type: 'text', text: part.text! } satisfies TextBlock];
    case 'inlineData':
      return [inlineBlock(part.inlineData!, field)];
    case 'fileData':
      return [fileBlock(part.fileData!, field)];
    case 'functionResponse': {
      const response = part.functionResponse!;
      const { text, isError } = resultContent(response.response ?? {});
      const block: ToolResultBlock = {
        type: 'tool_result',
        callId: calls.answer(response, field),
        content: [{ type: 'text', text }],
      };
      if (isError) block.isError = true;
      return [block];
    }
    case 'functionCall':
      throw invalidRequest(`${field}: a functionCall part is only allowed in a model turn`, `${field}.functionCall`);
    case 'empty':
      return [];
    default:
      throw unsupportedPart(kind, field);
  }
}
