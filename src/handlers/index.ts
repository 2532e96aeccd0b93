// operationId → handler. Every operation of the emitted OpenAPI has exactly one entry (checked by a test). Each
// handler is given the parts it uses; every generation operation is the one generation handler with its door's
// descriptor (formats/<door>/door.ts).
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { chatDoor } from '../formats/chat-completions/door.js';
import { geminiDoor } from '../formats/gemini/door.js';
import { messagesDoor } from '../formats/messages/door.js';
import { responsesDoor } from '../formats/responses/door.js';
import { generationHandler } from './generation-handler.js';
import { listApiKeys } from './list-api-keys.js';
import { createApiKey } from './create-api-key.js';
import { deleteApiKey } from './delete-api-key.js';
import { updateApiKey } from './update-api-key.js';
import { listModels } from './list-models.js';
import { getModel } from './get-model.js';
import { getCredits } from './get-credits.js';
import { getCurrentKey } from './get-current-key.js';
import { getGeneration } from './get-generation.js';
import { getSession } from './get-session.js';
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
import {
  adminAdjustOrganizationCredits,
  adminGetOrganizationPass,
  adminGrantOrganizationPass,
  adminRevokeOrganizationPass,
} from './admin-organization-money.js';
import { adminCreateUserKey } from './admin-create-user-key.js';
import { adminListUserKeys } from './admin-list-user-keys.js';
import { adminUpdateUserKey } from './admin-update-user-key.js';
import { adminDeleteUserKey } from './admin-delete-user-key.js';
import { adminUsageReport } from './admin-usage-report.js';
import { getActivity } from './get-activity.js';
import { listGenerations } from './list-generations.js';
import { countMessageTokens } from './count-message-tokens.js';
import { createEmbedding } from './create-embedding.js';
import { geminiCountTokens } from './gemini-count-tokens.js';
import { geminiListModels } from './gemini-list-models.js';
import { geminiGetModel } from './gemini-get-model.js';
import { listOrganizations } from './list-organizations.js';
import { createOrganization } from './create-organization.js';
import { listOrganizationMembers } from './list-organization-members.js';
import { putOrganizationMember } from './put-organization-member.js';
import {
  adminGetMemberBudget,
  adminGetOrganizationBudget,
  adminPutMemberBudget,
  adminPutOrganizationBudget,
  getMemberBudget,
  getOrganizationBudget,
  putMemberBudget,
  putOrganizationBudget,
} from './organization-budgets.js';
import { deleteOrganizationMember } from './delete-organization-member.js';
import { createOrganizationInvitation } from './create-organization-invitation.js';
import { acceptOrganizationInvitation } from './accept-organization-invitation.js';
import { getOrganizationUsage } from './organization-usage-report.js';
import { deleteOrganizationInvitation, listOrganizationInvitations } from './organization-invitation-list.js';
import { adminCreateOrganization } from './admin-create-organization.js';
import {
  adminDeleteOrganizationMember,
  adminListOrganizationMembers,
  adminPutOrganizationMember,
} from './admin-organization-members.js';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhookEvent,
  rotateWebhookSecret,
  updateWebhook,
} from './webhook-handlers.js';
import { adminListAuditLog, listOrganizationAuditLog } from './audit-log-handlers.js';
import { deleteResponse, getResponse, listResponseInputItems, purgeResponses } from './stored-responses.js';
import { adminCreateWebhook, adminDeleteWebhook, adminListWebhooks } from './admin-webhooks.js';
import { deleteModelAlias, getModelAlias, listModelAliases, putModelAlias } from './model-alias-handlers.js';
import { createPreset, deletePreset, getPreset, getPresetVersion, listPresets } from './preset-handlers.js';
import { deleteProviderKey, listProviderKeys, putProviderKey } from './provider-key-handlers.js';
import { getGuardrails, putGuardrails } from './guardrail-handlers.js';

export function buildHandlers(parts: HandlerParts): Record<string, Handler> {
  return {
    listApiKeys: listApiKeys(parts),
    createApiKey: createApiKey(parts),
    deleteApiKey: deleteApiKey(parts),
    updateApiKey: updateApiKey(parts),
    listModels: listModels(parts),
    getModel: getModel(parts),
    getCredits: getCredits(parts),
    createChatCompletion: generationHandler(chatDoor, parts),
    createResponse: generationHandler(responsesDoor, parts),
    getResponse: getResponse(parts),
    deleteResponse: deleteResponse(parts),
    purgeResponses: purgeResponses(parts),
    listResponseInputItems: listResponseInputItems(parts),
    getCurrentKey: getCurrentKey(parts),
    getGeneration: getGeneration(parts),
    getSession: getSession(parts),
    getPassUsage: getPassUsage(parts),
    listModelEndpoints: listModelEndpoints(parts),
    getHealth: getHealth(),
    getReadiness: getReadiness(parts),
    adminCreateUser: adminCreateUser(parts),
    adminListUsers: adminListUsers(parts),
    adminGetUser: adminGetUser(parts),
    adminAdjustCredits: adminAdjustCredits(parts),
    adminListLedger: adminListLedger(parts),
    adminGrantPass: adminGrantPass(parts),
    adminRevokePass: adminRevokePass(parts),
    adminGetPass: adminGetPass(parts),
    adminAdjustOrganizationCredits: adminAdjustOrganizationCredits(parts),
    adminGrantOrganizationPass: adminGrantOrganizationPass(parts),
    adminRevokeOrganizationPass: adminRevokeOrganizationPass(parts),
    adminGetOrganizationPass: adminGetOrganizationPass(parts),
    adminCreateUserKey: adminCreateUserKey(parts),
    adminListUserKeys: adminListUserKeys(parts),
    adminUpdateUserKey: adminUpdateUserKey(parts),
    adminDeleteUserKey: adminDeleteUserKey(parts),
    adminUsageReport: adminUsageReport(parts),
    getActivity: getActivity(parts),
    listGenerations: listGenerations(parts),
    createMessage: generationHandler(messagesDoor, parts),
    countMessageTokens: countMessageTokens(parts),
    createEmbedding: createEmbedding(parts),
    geminiGenerateContent: generationHandler(geminiDoor, parts),
    geminiStreamGenerateContent: generationHandler(geminiDoor, parts),
    listOrganizations: listOrganizations(parts),
    createOrganization: createOrganization(parts),
    listOrganizationMembers: listOrganizationMembers(parts),
    putOrganizationMember: putOrganizationMember(parts),
    getOrganizationBudget: getOrganizationBudget(parts),
    putOrganizationBudget: putOrganizationBudget(parts),
    getMemberBudget: getMemberBudget(parts),
    putMemberBudget: putMemberBudget(parts),
    adminGetOrganizationBudget: adminGetOrganizationBudget(parts),
    adminPutOrganizationBudget: adminPutOrganizationBudget(parts),
    adminGetMemberBudget: adminGetMemberBudget(parts),
    adminPutMemberBudget: adminPutMemberBudget(parts),
    deleteOrganizationMember: deleteOrganizationMember(parts),
    createOrganizationInvitation: createOrganizationInvitation(parts),
    acceptOrganizationInvitation: acceptOrganizationInvitation(parts),
    listOrganizationInvitations: listOrganizationInvitations(parts),
    getOrganizationUsage: getOrganizationUsage(parts),
    deleteOrganizationInvitation: deleteOrganizationInvitation(parts),
    adminCreateOrganization: adminCreateOrganization(parts),
    adminListOrganizationMembers: adminListOrganizationMembers(parts),
    adminPutOrganizationMember: adminPutOrganizationMember(parts),
    adminDeleteOrganizationMember: adminDeleteOrganizationMember(parts),
    geminiCountTokens: geminiCountTokens(parts),
    geminiListModels: geminiListModels(parts),
    geminiGetModel: geminiGetModel(parts),
    listWebhooks: listWebhooks(parts),
    createWebhook: createWebhook(parts),
    updateWebhook: updateWebhook(parts),
    deleteWebhook: deleteWebhook(parts),
    rotateWebhookSecret: rotateWebhookSecret(parts),
    listWebhookDeliveries: listWebhookDeliveries(parts),
    redeliverWebhookEvent: redeliverWebhookEvent(parts),
    listOrganizationAuditLog: listOrganizationAuditLog(parts),
    adminListAuditLog: adminListAuditLog(parts),
    adminListWebhooks: adminListWebhooks(parts),
    adminCreateWebhook: adminCreateWebhook(parts),
    adminDeleteWebhook: adminDeleteWebhook(parts),
    listModelAliases: listModelAliases(parts),
    getModelAlias: getModelAlias(parts),
    putModelAlias: putModelAlias(parts),
    deleteModelAlias: deleteModelAlias(parts),
    listPresets: listPresets(parts),
    getPreset: getPreset(parts),
    getPresetVersion: getPresetVersion(parts),
    createPreset: createPreset(parts),
    deletePreset: deletePreset(parts),
    listProviderKeys: listProviderKeys(parts),
    putProviderKey: putProviderKey(parts),
    deleteProviderKey: deleteProviderKey(parts),
    getGuardrails: getGuardrails(parts),
    putGuardrails: putGuardrails(parts),
  };
}
