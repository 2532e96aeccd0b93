// The Gemini door (:generateContent and :streamGenerateContent), described once (formats/shared/front-door.ts): the
// model comes from the path (model-name.ts), the session from the headers alone, errors in Google's shape.
import { sessionKeyFromHeaders } from '../../routing/session-key.js';
import type { FrontDoor } from '../shared/front-door.js';
import { buildGenerateContentResponse } from './build-response.js';
import { GEMINI_ERROR_SHAPE } from './error-body.js';
import { GeminiStreamRenderer } from './gemini-stream-renderer.js';
import { parseGeminiRequest } from './parse-request.js';
import { geminiRequestFacts } from './request-facts.js';
import type { GeminiGenerateContentRequest } from './wire-types.js';

export const geminiDoor: FrontDoor<GeminiGenerateContentRequest> = {
  protocol: 'gemini',
  apiFormat: 'gemini',
  readFacts: geminiRequestFacts,
  sessionKey: (_body, headers) => sessionKeyFromHeaders(headers),
  clientHeaders: () => ({}),
  parse: (body, { model, stream }) => parseGeminiRequest(body, model, stream),
  renderers: () => ({
    renderJson: buildGenerateContentResponse,
    createStreamRenderer: (identity) => new GeminiStreamRenderer(identity),
  }),
  errorShapes: [GEMINI_ERROR_SHAPE],
};
