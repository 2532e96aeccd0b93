// operationId → handler. Every operation of the emitted OpenAPI has exactly one entry (checked by a test).
import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { listApiKeys } from './list-api-keys.js';
import { createApiKey } from './create-api-key.js';
import { deleteApiKey } from './delete-api-key.js';
import { listModels } from './list-models.js';
import { getCredits } from './get-credits.js';
import { createChatCompletion } from './create-chat-completion.js';
import { getCurrentKey } from './get-current-key.js';
import { getGeneration } from './get-generation.js';
import { getPassUsage } from './get-pass-usage.js';
import { createMessage } from './create-message.js';
import { countMessageTokens } from './count-message-tokens.js';

export function buildHandlers(deps: Deps): Record<string, Handler> {
  return {
    listApiKeys: listApiKeys(deps),
    createApiKey: createApiKey(deps),
    deleteApiKey: deleteApiKey(deps),
    listModels: listModels(deps),
    getCredits: getCredits(deps),
    createChatCompletion: createChatCompletion(deps),
    getCurrentKey: getCurrentKey(deps),
    getGeneration: getGeneration(deps),
    getPassUsage: getPassUsage(deps),
    createMessage: createMessage(deps),
    countMessageTokens: countMessageTokens(deps),
  };
}
