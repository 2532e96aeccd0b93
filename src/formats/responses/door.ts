// The OpenAI Responses door (POST /responses), described once (formats/shared/front-door.ts): its renderers echo the
// request's settings; its errors are the gateway's own envelope.
import { continueResponse } from '../../response-state/continue-response.js';
import type { FrontDoor } from '../shared/front-door.js';
import { responsesWithPreset } from './preset-fill.js';
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
  // The model is the body's; reading the facts refuses a stored response left to continue (400): a request continuing
  // one comes here expanded (continueFrom), unless the gateway keeps no responses at all.
  withPreset: responsesWithPreset,
  readFacts: (body) => responsesRequestFacts(body),
  sessionKey: responsesSessionKey,
  clientHeaders: openAiClientHeaders,
  parse: (body, { stream, autoCache }) => parseResponseRequest(body, stream, autoCache),
  // A kept answer (a stored response) carries its reasoning's encrypted content, which a later turn sends back.
  renderers: (body, keeping) => {
    const echo = echoOf(body, keeping?.fields);
    const options = { encryptedReasoning: keeping !== undefined || includesEncryptedReasoning(body) };
    return {
      renderJson: (completion, totals, identity) => {
        const response = buildResponse(completion, totals, identity, echo, options);
        keeping?.final(response as unknown as Record<string, unknown>);
        return response;
      },
      createStreamRenderer: (identity) => new ResponseStreamRenderer(identity, echo, { ...options, keeping }),
    };
  },
  continueFrom: (body, input) => continueResponse(input.state, { body, owner: input.owner, local: input.local }),
  errorShapes: [],
  rateLimitHeaders: OPENAI_RATE_LIMIT_HEADERS,
};
