// The largest request body each operation reads (docs/limits-and-hardening.md), sized from the largest request a
// client legitimately sends to it. Every operation that takes a body is named here; the table is checked against the
// OpenAPI document (test/unit/body-limits.test.ts), so a new operation cannot fall to a cap by accident.
// Operations without a body (GET, DELETE) read none (read-json-body.ts).

/**
 * `generation`: whole conversations and embedding batches. Coding agents send ~400 KB per request, images and PDFs
 * inlined as base64 add megabytes, and an embeddings batch of 2,048 inputs of a few thousand characters is megabytes
 * too: MODELGATE_BODY_LIMIT_BYTES (32 MiB by default).
 * `key_settings`: a key's settings, whose allow-list takes up to 1,000 patterns of up to 200 characters (~200 KB).
 * `settings`: the operator's small objects (an e-mail address, a credit adjustment with its note, a pass grant).
 */
export type BodyCap = 'generation' | 'key_settings' | 'settings';

export const OPERATION_BODY_CAPS: Readonly<Record<string, BodyCap>> = {
  createChatCompletion: 'generation',
  createMessage: 'generation',
  countMessageTokens: 'generation',
  createResponse: 'generation',
  geminiGenerateContent: 'generation',
  geminiStreamGenerateContent: 'generation',
  geminiCountTokens: 'generation',
  createEmbedding: 'generation',
  createApiKey: 'key_settings',
  updateApiKey: 'key_settings',
  adminCreateUserKey: 'key_settings',
  adminUpdateUserKey: 'key_settings',
  adminCreateUser: 'settings',
  // A preset holds up to 32 KiB of settings; one saved from a request body carries that request's conversation too.
  createPreset: 'key_settings',
  adminAdjustCredits: 'settings',
  adminGrantPass: 'settings',
  createOrganization: 'settings',
  putOrganizationMember: 'settings',
  createOrganizationInvitation: 'settings',
  adminCreateOrganization: 'settings',
  adminPutOrganizationMember: 'settings',
  putOrganizationBudget: 'settings',
  putMemberBudget: 'settings',
  adminPutOrganizationBudget: 'settings',
  adminPutMemberBudget: 'settings',
  adminAdjustOrganizationCredits: 'settings',
  adminGrantOrganizationPass: 'settings',
  createWebhook: 'settings',
  updateWebhook: 'settings',
  adminCreateWebhook: 'settings',
  putProviderKey: 'settings',
  putModelAlias: 'settings',
  putGuardrails: 'settings',
};

/** 1,000 allow-list entries of 200 characters are ~203 KB of JSON; a quarter of headroom for formatting. */
export const KEY_SETTINGS_BODY_LIMIT_BYTES = 256 * 1024;

/** A 500-character note or a 320-character address, even written entirely as `\u` escapes, is under 8 KB. */
export const SETTINGS_BODY_LIMIT_BYTES = 16 * 1024;

export function bodyLimitOf(operationId: string | undefined, generationLimitBytes: number): number {
  const cap = operationId === undefined ? undefined : OPERATION_BODY_CAPS[operationId];
  if (cap === 'generation') return generationLimitBytes;
  if (cap === 'key_settings') return KEY_SETTINGS_BODY_LIMIT_BYTES;
  return SETTINGS_BODY_LIMIT_BYTES;
}
