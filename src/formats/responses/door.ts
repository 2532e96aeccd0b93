// The OpenAI Responses door (POST /responses), described once (formats/shared/front-door.ts): its renderers echo the
// request's settings; its errors are the gateway's own envelope.
import type { FrontDoor } from '../shared/front-door.js';
import { OPENAI_RATE_LIMIT_HEADERS } from '../shared/rate-limit-headers.js';
import { buildResponse } from './build-response.js';
import { openAiClientHeaders } from './client-headers.js';
import { includesEncryptedReasoning, parseResponseRequest } from './parse-request.js';
import { responsesRequestFacts } from './request-facts.js';
import { echoOf } from './response-object.js';
import { ResponseStreamRenderer } from './response-stream-renderer.js';
import { responsesSessionKey } from './session-key.js';
import type { ResponseRequest } from './wire-types.js';

export const responsesDoor: FrontDoor<ResponseRequest> = {
  protocol: 'responses',
  apiFormat: 'responses',
  operationIds: ['createResponse'],
  modelOf: ({ body }) => body.model,
  // OpenAI's default for this API: one JSON object unless `stream` is true.
  streamOf: ({ body }) => (body.stream === true ? 'sse' : undefined),
  // The model is the body's; reading the facts refuses a stored response to continue (400), which no lane serves.
  readFacts: (body) => responsesRequestFacts(body),
  sessionKey: responsesSessionKey,
  clientHeaders: openAiClientHeaders,
  parse: (body, { stream, autoCache }) => parseResponseRequest(body, stream, autoCache),
  renderers: (body) => {
    const echo = echoOf(body);
    const options = { encryptedReasoning: includesEncryptedReasoning(body) };
    return {
      renderJson: (completion, totals, identity) => buildResponse(completion, totals, identity, echo, options),
      createStreamRenderer: (identity) => new ResponseStreamRenderer(identity, echo, options),
    };
  },
  errorShapes: [],
  rateLimitHeaders: OPENAI_RATE_LIMIT_HEADERS,
};
