// The emitted OpenAPI document must load in openapi-backend (our router/validator), expose exactly the
// operations the handlers are named after, validate requests the way the spec text promises, and
// check-generated.sh must notice when spec/ and generated/ drift apart.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import addFormatsModule from 'ajv-formats';
import { OpenAPIBackend } from 'openapi-backend';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDocument, repoRoot } from './spec-document.js';

const run = promisify(execFile);
const addFormats = addFormatsModule.default;

const expectedOperations: Record<string, [method: string, path: string]> = {
  createChatCompletion: ['post', '/chat/completions'],
  createResponse: ['post', '/responses'],
  getResponse: ['get', '/responses/{response_id}'],
  deleteResponse: ['delete', '/responses/{response_id}'],
  purgeResponses: ['delete', '/responses'],
  listResponseInputItems: ['get', '/responses/{response_id}/input_items'],
  listModels: ['get', '/models'],
  getSession: ['get', '/sessions/{id}'],
  getOrganizationBudget: ['get', '/organizations/{organization_id}/budget'],
  putOrganizationBudget: ['put', '/organizations/{organization_id}/budget'],
  getMemberBudget: ['get', '/organizations/{organization_id}/members/{user_id}/budget'],
  putMemberBudget: ['put', '/organizations/{organization_id}/members/{user_id}/budget'],
  adminGetOrganizationBudget: ['get', '/admin/organizations/{organization_id}/budget'],
  adminPutOrganizationBudget: ['put', '/admin/organizations/{organization_id}/budget'],
  adminGetMemberBudget: ['get', '/admin/organizations/{organization_id}/members/{user_id}/budget'],
  adminPutMemberBudget: ['put', '/admin/organizations/{organization_id}/members/{user_id}/budget'],
  getModel: ['get', '/models/{model_id}'],
  listApiKeys: ['get', '/api-keys'],
  createApiKey: ['post', '/api-keys'],
  deleteApiKey: ['delete', '/api-keys/{key_id}'],
  updateApiKey: ['patch', '/api-keys/{key_id}'],
  getCurrentKey: ['get', '/key'],
  getCredits: ['get', '/credits'],
  getGeneration: ['get', '/generation'],
  getPassUsage: ['get', '/pass/usage'],
  listModelEndpoints: ['get', '/models/{author}/{slug}/endpoints'],
  getHealth: ['get', '/health'],
  getReadiness: ['get', '/ready'],
  adminCreateUser: ['post', '/admin/users'],
  adminListUsers: ['get', '/admin/users'],
  adminGetUser: ['get', '/admin/users/{user_id}'],
  adminAdjustCredits: ['post', '/admin/users/{user_id}/credits'],
  adminListLedger: ['get', '/admin/users/{user_id}/ledger'],
  adminGrantPass: ['post', '/admin/users/{user_id}/pass'],
  adminRevokePass: ['delete', '/admin/users/{user_id}/pass'],
  adminGetPass: ['get', '/admin/users/{user_id}/pass'],
  adminCreateUserKey: ['post', '/admin/users/{user_id}/keys'],
  adminListUserKeys: ['get', '/admin/users/{user_id}/keys'],
  adminUpdateUserKey: ['patch', '/admin/users/{user_id}/keys/{key_id}'],
  adminDeleteUserKey: ['delete', '/admin/users/{user_id}/keys/{key_id}'],
  adminUsageReport: ['get', '/admin/usage'],
  getActivity: ['get', '/activity'],
  listGenerations: ['get', '/generations'],
  createMessage: ['post', '/messages'],
  countMessageTokens: ['post', '/messages/count_tokens'],
  createEmbedding: ['post', '/embeddings'],
  geminiGenerateContent: ['post', '/gemini/v1beta/models/{model}:generateContent'],
  geminiStreamGenerateContent: ['post', '/gemini/v1beta/models/{model}:streamGenerateContent'],
  geminiCountTokens: ['post', '/gemini/v1beta/models/{model}:countTokens'],
  geminiListModels: ['get', '/gemini/v1beta/models'],
  geminiGetModel: ['get', '/gemini/v1beta/models/{model}'],
  listOrganizations: ['get', '/organizations'],
  createOrganization: ['post', '/organizations'],
  listOrganizationMembers: ['get', '/organizations/{organization_id}/members'],
  putOrganizationMember: ['put', '/organizations/{organization_id}/members/{user_id}'],
  deleteOrganizationMember: ['delete', '/organizations/{organization_id}/members/{user_id}'],
  createOrganizationInvitation: ['post', '/organizations/{organization_id}/invitations'],
  acceptOrganizationInvitation: ['post', '/invitations/{token}/accept'],
  listOrganizationInvitations: ['get', '/organizations/{organization_id}/invitations'],
  getOrganizationUsage: ['get', '/organizations/{organization_id}/usage'],
  deleteOrganizationInvitation: ['delete', '/organizations/{organization_id}/invitations/{invitation_id}'],
  listWebhooks: ['get', '/organizations/{organization_id}/webhooks'],
  createWebhook: ['post', '/organizations/{organization_id}/webhooks'],
  updateWebhook: ['patch', '/organizations/{organization_id}/webhooks/{webhook_id}'],
  deleteWebhook: ['delete', '/organizations/{organization_id}/webhooks/{webhook_id}'],
  rotateWebhookSecret: ['post', '/organizations/{organization_id}/webhooks/{webhook_id}/rotate-secret'],
  listWebhookDeliveries: ['get', '/organizations/{organization_id}/webhooks/{webhook_id}/deliveries'],
  redeliverWebhookEvent: [
    'post',
    '/organizations/{organization_id}/webhooks/{webhook_id}/deliveries/{event_id}/redeliver',
  ],
  listOrganizationAuditLog: ['get', '/organizations/{organization_id}/audit-log'],
  adminListAuditLog: ['get', '/admin/audit-log'],
  listProviderKeys: ['get', '/provider-keys'],
  putProviderKey: ['put', '/provider-keys/{provider}'],
  deleteProviderKey: ['delete', '/provider-keys/{provider}'],
  getGuardrails: ['get', '/guardrails'],
  putGuardrails: ['put', '/guardrails'],
  listModelAliases: ['get', '/aliases'],
  getModelAlias: ['get', '/aliases/{name}'],
  putModelAlias: ['put', '/aliases/{name}'],
  deleteModelAlias: ['delete', '/aliases/{name}'],
  listPresets: ['get', '/presets'],
  createPreset: ['post', '/presets'],
  getPreset: ['get', '/presets/{slug}'],
  getPresetVersion: ['get', '/presets/{slug}/versions/{version}'],
  deletePreset: ['delete', '/presets/{slug}'],
  adminListWebhooks: ['get', '/admin/organizations/{organization_id}/webhooks'],
  adminCreateWebhook: ['post', '/admin/organizations/{organization_id}/webhooks'],
  adminDeleteWebhook: ['delete', '/admin/organizations/{organization_id}/webhooks/{webhook_id}'],
  adminCreateOrganization: ['post', '/admin/organizations'],
  adminListOrganizationMembers: ['get', '/admin/organizations/{organization_id}/members'],
  adminPutOrganizationMember: ['put', '/admin/organizations/{organization_id}/members/{user_id}'],
  adminDeleteOrganizationMember: ['delete', '/admin/organizations/{organization_id}/members/{user_id}'],
  adminAdjustOrganizationCredits: ['post', '/admin/organizations/{organization_id}/credits'],
  adminGrantOrganizationPass: ['post', '/admin/organizations/{organization_id}/pass'],
  adminRevokeOrganizationPass: ['delete', '/admin/organizations/{organization_id}/pass'],
  adminGetOrganizationPass: ['get', '/admin/organizations/{organization_id}/pass'],
};

describe('generated OpenAPI document in openapi-backend', () => {
  let api: OpenAPIBackend;

  beforeAll(async () => {
    // openapi-backend knows only a few OpenAPI formats itself; date-time and friends come from ajv-formats.
    api = new OpenAPIBackend({
      definition: loadDocument() as never,
      strict: true,
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    await api.init();
  });

  it('is OpenAPI 3.0 with the local server and bearer auth on every operation', () => {
    const doc = loadDocument() as Record<string, any>;
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:8080/api/v1' })]);
    expect(doc.security).toEqual([{ BearerAuth: [] }]);
    // The probes alone opt out (an empty requirement): load balancers hold no credential. The Anthropic Messages
    // routes and the model listing (Anthropic's Models API shape) also take the x-api-key header, as the Anthropic
    // SDK sends it. The Gemini routes take Google's x-goog-api-key header and ?key= query parameter.
    const own = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown }>>).flatMap(
      ([path, item]) =>
        Object.values(item)
          .filter((op) => op.security !== undefined)
          .map((op) => [path, op.security]),
    );
    const messagesAuth = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
    const geminiAuth = [{ GoogleApiKeyHeader: [] }, { GoogleApiKeyQuery: [] }, { BearerAuth: [] }];
    expect(own.sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual([
      ['/gemini/v1beta/models', geminiAuth],
      ['/gemini/v1beta/models/{model}', geminiAuth],
      ['/gemini/v1beta/models/{model}:countTokens', geminiAuth],
      ['/gemini/v1beta/models/{model}:generateContent', geminiAuth],
      ['/gemini/v1beta/models/{model}:streamGenerateContent', geminiAuth],
      ['/health', [{}]],
      ['/messages', messagesAuth],
      ['/messages/count_tokens', messagesAuth],
      ['/models', messagesAuth],
      ['/models/{model_id}', messagesAuth],
      ['/ready', [{}]],
    ]);
    expect(doc.components.securitySchemes.BearerAuth).toMatchObject({ type: 'http', scheme: 'Bearer' });
    expect(doc.components.securitySchemes.GoogleApiKeyHeader).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-goog-api-key',
    });
    expect(doc.components.securitySchemes.GoogleApiKeyQuery).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'key',
    });
  });

  it('has exactly the expected operationIds, methods and paths', () => {
    const ops = api.getOperations().map((op) => [op.operationId, op.method, op.path]);
    const expected = Object.entries(expectedOperations).map(([id, [method, path]]) => [id, method, path]);
    expect(ops).toHaveLength(expected.length);
    expect(ops).toEqual(expect.arrayContaining(expected));
  });

  it('documents x-request-id on every response and rate-limit headers on every 429', () => {
    for (const op of api.getOperations()) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const headers = (response as { headers?: Record<string, unknown> }).headers ?? {};
        expect(Object.keys(headers), `${op.operationId} ${status}`).toContain('x-request-id');
        if (status === '429') {
          expect(Object.keys(headers)).toEqual(
            expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']),
          );
        }
      }
    }
  });

  it("documents each door's rate-limit headers on its model calls' answers and 429s, and Retry-After of at least 1 s", () => {
    const doc = loadDocument() as Record<string, any>;
    const family = (prefix: string, names: string[]) => names.map((name) => prefix.replace('*', name));
    const openRouter = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
    const openAi = ['requests', 'tokens'].flatMap((f) => family(`x-ratelimit-*-${f}`, ['limit', 'remaining', 'reset']));
    const anthropic = ['requests', 'tokens'].flatMap((f) =>
      family(`anthropic-ratelimit-${f}-*`, ['limit', 'remaining', 'reset']),
    );
    const doors: [string, string[], string[]][] = [
      ['/chat/completions', openAi, ['retry-after-ms']],
      ['/responses', openAi, ['retry-after-ms']],
      ['/embeddings', openAi, ['retry-after-ms']],
      ['/messages', anthropic, []],
      ['/messages/count_tokens', anthropic, []],
      ['/gemini/v1beta/models/{model}:generateContent', [], []],
      ['/gemini/v1beta/models/{model}:streamGenerateContent', [], []],
      ['/gemini/v1beta/models/{model}:countTokens', [], []],
    ];
    for (const [path, own, retry] of doors) {
      const { responses } = doc.paths[path].post;
      for (const status of ['200', '429']) {
        const names = Object.keys(responses[status].headers);
        const expected = [...openRouter, ...own, ...(status === '429' ? ['Retry-After', ...retry] : [])];
        expect(names, `${path} ${status}`).toEqual(expect.arrayContaining(expected));
        const others = [...openAi, ...anthropic, 'retry-after-ms'].filter((name) => !expected.includes(name));
        expect(
          names.filter((name) => others.includes(name)),
          `${path} ${status}`,
        ).toEqual([]);
      }
      expect(responses['429'].headers['Retry-After']).toMatchObject({ required: true, schema: { minimum: 1 } });
    }
  });

  it('answers createChatCompletion with JSON or SSE and documents the chat errors', () => {
    // The raw document, not api.getOperation(): openapi-backend dereferences $refs in place.
    const op = loadDocument().paths['/chat/completions'].post as Record<string, any>;
    const ok = op.responses['200'] as { content: Record<string, { schema: unknown }> };
    expect(ok.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ChatCompletion' });
    expect(ok.content['text/event-stream'].schema).toEqual({ $ref: '#/components/schemas/ChatCompletionEventStream' });
    expect(Object.keys(op.responses).sort()).toEqual([
      '200',
      '400',
      '401',
      '402',
      '403',
      '404',
      '413',
      '429',
      '500',
      '502',
      '503',
    ]);
    const headerNames = (op.parameters as { name: string; in: string }[]).map((p) => `${p.in}:${p.name}`);
    expect(headerNames).toEqual([
      'header:HTTP-Referer',
      'header:X-Title',
      'header:X-Task-ID',
      'header:X-Modelgate-Cache',
      'header:X-Modelgate-Auto-Cache',
    ]);
  });

  const chat = (body: unknown) =>
    api.validateRequest(
      { method: 'post', path: '/chat/completions', headers: { 'content-type': 'application/json' }, body },
      'createChatCompletion',
    );
  const user = { role: 'user', content: 'Hello' };

  it('accepts OpenAI-style requests, including unknown fields and null sampling fields', () => {
    expect(chat({ model: 'openai/gpt-4o-mini', messages: [user] }).valid).toBe(true);
    const rich = chat({
      model: 'anthropic/claude-sonnet-4',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'c1', content: '42' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object', properties: {} } } }],
      tool_choice: { type: 'function', function: { name: 'f' } },
      temperature: null,
      stop: ['END'],
      reasoning: { effort: 'high' },
      provider: { order: ['anthropic'] },
      usage: { include: true },
    });
    expect(rich.errors).toBeNull();
    expect(rich.valid).toBe(true);
  });

  it.each([
    ['no messages', { model: 'm/x', messages: [] }],
    ['missing model', { messages: [user] }],
    ['unknown role', { model: 'm/x', messages: [{ role: 'bot', content: 'x' }] }],
    ['temperature above 2', { model: 'm/x', messages: [user], temperature: 2.5 }],
    ['five stop sequences', { model: 'm/x', messages: [user], stop: ['a', 'b', 'c', 'd', 'e'] }],
    [
      'raw base64 image',
      { model: 'm/x', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'AAAA' } }] }] },
    ],
    [
      'tool name with a space',
      { model: 'm/x', messages: [user], tools: [{ type: 'function', function: { name: 'get weather' } }] },
    ],
    ['unknown tool_choice', { model: 'm/x', messages: [user], tool_choice: 'sometimes' }],
    ['tool message without tool_call_id', { model: 'm/x', messages: [user, { role: 'tool', content: 'x' }] }],
  ])('rejects a chat request with %s', (_name, body) => {
    expect(chat(body).valid).toBe(false);
  });

  it('validates the other request bodies and parameters', () => {
    const create = (body: unknown) =>
      api.validateRequest(
        { method: 'post', path: '/api-keys', headers: { 'content-type': 'application/json' }, body },
        'createApiKey',
      );
    expect(create({}).valid).toBe(true);
    expect(create({ name: 'CI' }).valid).toBe(true);
    expect(create({ name: '' }).valid).toBe(false);
    expect(create({ name: 'x'.repeat(101) }).valid).toBe(false);
    const generation = (query: Record<string, string>) =>
      api.validateRequest({ method: 'get', path: '/generation', headers: {}, query }, 'getGeneration');
    expect(generation({ id: 'gen-1' }).valid).toBe(true);
    expect(generation({}).valid).toBe(false);
  });
});

describe('scripts/check-generated.sh', () => {
  // Runs against copies of spec/ and generated/ so the real tree is never touched.
  function copyProject(): string {
    const dir = mkdtempSync(join(tmpdir(), 'modelgate-spec-test-'));
    cpSync(join(repoRoot, 'spec'), join(dir, 'spec'), { recursive: true });
    cpSync(join(repoRoot, 'generated'), join(dir, 'generated'), { recursive: true });
    cpSync(join(repoRoot, 'tsp-config.yaml'), join(dir, 'tsp-config.yaml'));
    // The TypeSpec compiler resolves its libraries relative to the spec files.
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
    return dir;
  }

  async function check(root: string): Promise<{ code: number; stderr: string }> {
    try {
      await run('bash', [join(repoRoot, 'scripts/check-generated.sh'), root]);
      return { code: 0, stderr: '' };
    } catch (err) {
      const e = err as { code?: number; stderr?: string };
      return { code: e.code ?? -1, stderr: e.stderr ?? '' };
    }
  }

  it('passes on an up-to-date copy and fails with a clear message when the spec changed', async () => {
    const fresh = copyProject();
    const stale = copyProject();
    try {
      const routes = join(stale, 'spec/chat/routes.tsp');
      const text = readFileSync(routes, 'utf8');
      expect(text).toContain('Create a chat completion');
      writeFileSync(routes, text.replace('Create a chat completion', 'Create a chat completion (edited)'));
      const generatedBefore = readFileSync(join(stale, 'generated/openapi.json'), 'utf8');

      // Both regenerations at once: each takes a few seconds of compiler time.
      const [ok, bad] = await Promise.all([check(fresh), check(stale)]);

      expect(ok).toEqual({ code: 0, stderr: '' });
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('generated/ is stale: run make generate');
      expect(bad.stderr).toContain('(edited)');
      expect(readFileSync(join(stale, 'generated/openapi.json'), 'utf8')).toBe(generatedBefore);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
      rmSync(stale, { recursive: true, force: true });
    }
  }, 60_000);
});
