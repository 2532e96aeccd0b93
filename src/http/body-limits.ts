// The largest request body each operation reads (docs/limits-and-hardening.md). Generation doors carry whole
// conversations: coding agents send ~400 KB per request, and images and PDFs inlined as base64 add megabytes, so they
// get MODELGATE_BODY_LIMIT_BYTES (32 MiB by default). Everything else (keys, credits, operator API) takes a few
// hundred bytes of JSON; a small fixed cap keeps an authenticated client from parking megabytes in the process there.

/** The operations that take a generation request (chat, messages, token counts, responses, Gemini's). */
export const GENERATION_OPERATIONS: ReadonlySet<string> = new Set([
  'createChatCompletion',
  'createMessage',
  'countMessageTokens',
  'createResponse',
  'geminiGenerateContent',
  'geminiStreamGenerateContent',
  'geminiCountTokens',
]);

/** Cap of every other operation's body. */
export const MANAGEMENT_BODY_LIMIT_BYTES = 64 * 1024;

export function bodyLimitOf(operationId: string | undefined, generationLimitBytes: number): number {
  return operationId !== undefined && GENERATION_OPERATIONS.has(operationId) ? generationLimitBytes : MANAGEMENT_BODY_LIMIT_BYTES;
}
