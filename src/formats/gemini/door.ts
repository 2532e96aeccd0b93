// The Gemini door (:generateContent and :streamGenerateContent), described once (formats/shared/front-door.ts): the
// model comes from the path (model-name.ts), the session from the headers alone, errors in Google's shape.
import { sessionKeyFromHeaders } from '../../routing/session-key.js';
import type { FrontDoor } from '../shared/front-door.js';
import { geminiWithPreset } from './preset-fill.js';
import { OPENROUTER_RATE_LIMIT_HEADERS } from '../shared/rate-limit-headers.js';
import { buildGenerateContentResponse } from './build-response.js';
import { GEMINI_ERROR_SHAPE } from './error-body.js';
import { GeminiStreamRenderer } from './gemini-stream-renderer.js';
import { geminiGatewayModelId } from './model-name.js';
import { parseGeminiRequest } from './parse-request.js';
import { geminiRequestFacts } from './request-facts.js';
import type { GeminiGenerateContentRequest } from './wire-types.js';

export const geminiDoor: FrontDoor<GeminiGenerateContentRequest> = {
  protocol: 'gemini',
  apiFormat: 'gemini',
  operationIds: ['geminiGenerateContent', 'geminiStreamGenerateContent'],
  // The path names the model, the Google way or as a gateway id (model-name.ts).
  modelOf: (call, { catalog }) => geminiGatewayModelId(call.pathParam('model') ?? '', catalog),
  // The operation says whether it streams; the stream is Server-Sent Events with `alt=sse` (Gemini CLI, the Gen AI
  // SDKs), else one JSON array sent chunk by chunk, as Google answers.
  streamOf: (call) => {
    if (call.operationId !== 'geminiStreamGenerateContent') return undefined;
    return call.query('alt')?.toLowerCase() === 'sse' ? 'sse' : 'json-array';
  },
  withPreset: geminiWithPreset,
  readFacts: geminiRequestFacts,
  sessionKey: (_body, headers) => sessionKeyFromHeaders(headers),
  clientHeaders: () => ({}),
  parse: (body, { model, stream }) => parseGeminiRequest(body, model, stream),
  renderers: () => ({
    renderJson: buildGenerateContentResponse,
    createStreamRenderer: (identity) => new GeminiStreamRenderer(identity),
  }),
  errorShapes: [GEMINI_ERROR_SHAPE],
  rateLimitHeaders: OPENROUTER_RATE_LIMIT_HEADERS,
};
