// operationId → handler. Every operation of the emitted OpenAPI has exactly one entry (checked by a test).
import type { Deps } from '../deps.js';
import type { Handler } from '../http/openapi-router.js';
import { listApiKeys } from './list-api-keys.js';
import { createApiKey } from './create-api-key.js';
import { deleteApiKey } from './delete-api-key.js';
import { updateApiKey } from './update-api-key.js';
import { listModels } from './list-models.js';
import { getCredits } from './get-credits.js';
import { createChatCompletion } from './create-chat-completion.js';
import { createResponse } from './create-response.js';
import { getCurrentKey } from './get-current-key.js';
import { getGeneration } from './get-generation.js';
import { getPassUsage } from './get-pass-usage.js';
import { listModelEndpoints } from './list-model-endpoints.js';
import { getHealth } from './get-health.js';
import { getReadiness } from './get-readiness.js';
import { adminCreateUser } from './admin-create-user.js';
import { adminListUsers } from './admin-list-users.js';
import { adminGetUser } from './admin-get-user.js';
import { adminAdjustCredits } from './admin-adjust-credits.js';
import { adminListLedger } from './admin-list-ledger.js';
import { adminGrantPass } from './admin-grant-pass.js';
import { adminRevokePass } from './admin-revoke-pass.js';
import { adminGetPass } from './admin-get-pass.js';
import { adminCreateUserKey } from './admin-create-user-key.js';
import { adminListUserKeys } from './admin-list-user-keys.js';
import { adminUpdateUserKey } from './admin-update-user-key.js';
import { adminDeleteUserKey } from './admin-delete-user-key.js';
import { adminUsageReport } from './admin-usage-report.js';
import { getActivity } from './get-activity.js';
import { listGenerations } from './list-generations.js';
import { createMessage } from './create-message.js';
import { countMessageTokens } from './count-message-tokens.js';

export function buildHandlers(deps: Deps): Record<string, Handler> {
  return {
    listApiKeys: listApiKeys(deps),
    createApiKey: createApiKey(deps),
    deleteApiKey: deleteApiKey(deps),
    updateApiKey: updateApiKey(deps),
    listModels: listModels(deps),
    getCredits: getCredits(deps),
    createChatCompletion: createChatCompletion(deps),
    createResponse: createResponse(deps),
    getCurrentKey: getCurrentKey(deps),
    getGeneration: getGeneration(deps),
    getPassUsage: getPassUsage(deps),
    listModelEndpoints: listModelEndpoints(deps),
    getHealth: getHealth(deps),
    getReadiness: getReadiness(deps),
    adminCreateUser: adminCreateUser(deps),
    adminListUsers: adminListUsers(deps),
    adminGetUser: adminGetUser(deps),
    adminAdjustCredits: adminAdjustCredits(deps),
    adminListLedger: adminListLedger(deps),
    adminGrantPass: adminGrantPass(deps),
    adminRevokePass: adminRevokePass(deps),
    adminGetPass: adminGetPass(deps),
    adminCreateUserKey: adminCreateUserKey(deps),
    adminListUserKeys: adminListUserKeys(deps),
    adminUpdateUserKey: adminUpdateUserKey(deps),
    adminDeleteUserKey: adminDeleteUserKey(deps),
    adminUsageReport: adminUsageReport(deps),
    getActivity: getActivity(deps),
    listGenerations: listGenerations(deps),
    createMessage: createMessage(deps),
    countMessageTokens: countMessageTokens(deps),
  };
}
