// Every operation that takes a body has a stated cap, sized from the largest body its schema admits (where the schema
// bounds it), and the limits page names each one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import definition from '../../generated/openapi.json' with { type: 'json' };
import {
  bodyLimitOf,
  KEY_SETTINGS_BODY_LIMIT_BYTES,
  OPERATION_BODY_CAPS,
  SETTINGS_BODY_LIMIT_BYTES,
} from '../../src/http/body-limits.js';

type Schema = {
  $ref?: string;
  maxLength?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
};
const schemas = (definition as unknown as { components: { schemas: Record<string, Schema> } }).components.schemas;
const resolve = (schema: Schema): Schema => (schema.$ref ? schemas[schema.$ref.split('/').pop()!] : schema);

const operations = Object.values(
  definition.paths as Record<string, Record<string, { operationId?: string; requestBody?: unknown }>>,
)
  .flatMap((methods) => Object.values(methods))
  .filter((operation) => operation.operationId !== undefined);
const withBody = operations
  .filter((operation) => operation.requestBody !== undefined)
  .map((operation) => operation.operationId!);

/** JSON text of `length` characters outside the BMP, each as an escaped surrogate pair: the most bytes a character takes. */
const escapedText = (length: number) => `"${'\\ud83d\\ude00'.repeat(length)}"`;

describe('body caps per operation', () => {
  it('names every operation that takes a body, and none that does not', () => {
    expect(Object.keys(OPERATION_BODY_CAPS).sort()).toEqual([...withBody].sort());
  });

  it('gives every generation door, embeddings included, the configured generation cap', () => {
    for (const id of [
      'createChatCompletion',
      'createMessage',
      'createResponse',
      'geminiGenerateContent',
      'createEmbedding',
    ]) {
      expect(bodyLimitOf(id, 32 * 1024 * 1024), id).toBe(32 * 1024 * 1024);
    }
  });

  it("fits the largest key settings the schema admits, each character escaped, in the key settings' cap", () => {
    const request = resolve(schemas.CreateApiKeyRequest);
    const allowList = request.properties!.allowed_models;
    const pattern = resolve(allowList.items!);
    expect([allowList.maxItems, pattern.maxLength]).toEqual([1000, 200]);
    // Model patterns are ASCII (`<provider>/<model>`), so their longest form is plain; the name may be anything.
    const patterns = Array.from({ length: allowList.maxItems! }, () => `"${'m'.repeat(pattern.maxLength!)}"`);
    const largest =
      `{"name":${escapedText(request.properties!.name.maxLength!)},"kind":"inference","limit":999999999.999999,` +
      `"limit_reset":"monthly","expires_at":"2099-12-31T23:59:59.999999999Z","allowed_models":[${patterns.join(',')}]}`;
    expect(Buffer.byteLength(largest)).toBeLessThan(KEY_SETTINGS_BODY_LIMIT_BYTES * 0.8);
    for (const id of ['createApiKey', 'updateApiKey', 'adminCreateUserKey', 'adminUpdateUserKey'])
      expect(bodyLimitOf(id, 1 << 25)).toBe(KEY_SETTINGS_BODY_LIMIT_BYTES);
  });

  it("fits the operator's largest other settings, each character escaped, in the small cap", () => {
    const email = resolve(schemas.CreateUserRequest).properties!.email.maxLength!;
    const note = resolve(schemas.AdjustCreditsRequest).properties!.note.maxLength!;
    const largest = [
      `{"email":${escapedText(email)}}`,
      `{"amount":-999999999.999999999,"note":${escapedText(note)}}`,
      '{"months":120}',
    ];
    for (const body of largest) expect(Buffer.byteLength(body)).toBeLessThan(SETTINGS_BODY_LIMIT_BYTES / 2);
    for (const id of ['adminCreateUser', 'adminAdjustCredits', 'adminGrantPass'])
      expect(bodyLimitOf(id, 1 << 25)).toBe(SETTINGS_BODY_LIMIT_BYTES);
  });

  it('states each cap in docs/limits-and-hardening.md', () => {
    const page = readFileSync('docs/limits-and-hardening.md', 'utf8');
    for (const id of withBody) expect(page, id).toContain(`\`${id}\``);
  });
});
