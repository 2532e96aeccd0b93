// Route authorization by credential kind, key policies (disabled, expired, allowed models) and limit periods.
import { describe, expect, it } from 'vitest';
import { authorizeRoute, checkModelAllowed, modelAllowed } from '../../src/auth/authorize-route.js';
import { periodEnd, periodStart } from '../../src/billing/key-periods.js';
import type { Principal } from '../../src/auth/principal.js';
import type { GatewayError } from '../../src/core/gateway-error.js';

const NOW = new Date('2026-03-11T12:00:00Z'); // a Wednesday
const limits = { rateLimitRpm: null, rateLimitTpm: null, freeRequestsPerDay: null, creditLimitNanos: null };
const key = (policy: Partial<NonNullable<Principal['policy']>> = {}): Principal => ({
  kind: 'api_key',
  organizationId: 'usr_1',
  memberUserId: 'usr_1',
  role: 'owner',
  email: 'a@b.c',
  credentialId: 'key_1',
  limits,
  policy: { disabled: false, expiresAt: null, allowedModels: null, ...policy },
});
const admin: Principal = {
  kind: 'admin_key',
  organizationId: '',
  memberUserId: '',
  role: 'member',
  email: '',
  credentialId: 'adm_1',
  limits,
};

function failure(fn: () => void): GatewayError {
  try {
    fn();
  } catch (err) {
    return err as GatewayError;
  }
  throw new Error('expected a GatewayError');
}

describe('authorizeRoute', () => {
  it('keeps admin keys on /admin and every other credential off it', () => {
    expect(() => authorizeRoute(admin, '/api/v1/admin/users', NOW)).not.toThrow();
    expect(failure(() => authorizeRoute(admin, '/api/v1/api-keys', NOW))).toMatchObject({
      status: 403,
      metadata: { reason: 'user_credential_required' },
    });
    expect(failure(() => authorizeRoute(key(), '/api/v1/admin/users', NOW))).toMatchObject({
      status: 403,
      metadata: { reason: 'admin_key_required' },
    });
    expect(
      failure(() => authorizeRoute({ ...key(), kind: 'account_token', policy: undefined }, '/api/v1/admin/usage', NOW))
        .status,
    ).toBe(403);
    // A path that merely starts with the word is not the admin area.
    expect(() => authorizeRoute(key(), '/api/v1/administrators', NOW)).not.toThrow();
  });

  it('refuses a disabled key and an expired key with 401 saying which', () => {
    expect(failure(() => authorizeRoute(key({ disabled: true }), '/api/v1/key', NOW))).toMatchObject({
      status: 401,
      metadata: { reason: 'key_disabled' },
    });
    expect(failure(() => authorizeRoute(key({ expiresAt: NOW }), '/api/v1/key', NOW))).toMatchObject({
      status: 401,
      metadata: { reason: 'key_expired' },
    });
    expect(() => authorizeRoute(key({ expiresAt: new Date(NOW.getTime() + 1) }), '/api/v1/key', NOW)).not.toThrow();
  });
});

describe('management keys', () => {
  const management = (policy: Partial<NonNullable<Principal['policy']>> = {}): Principal => ({
    ...key(policy),
    kind: 'management_key',
  });

  it('open the key and account routes and nothing that calls a model (deny by default)', () => {
    for (const op of [
      'listApiKeys',
      'createApiKey',
      'updateApiKey',
      'deleteApiKey',
      'getCurrentKey',
      'getCredits',
      'getGeneration',
    ]) {
      expect(() => authorizeRoute(management(), '/api/v1/x', NOW, op), op).not.toThrow();
    }
    for (const op of [
      'createChatCompletion',
      'createMessage',
      'countMessageTokens',
      'createResponse',
      'someFutureGeneration',
      undefined,
    ]) {
      expect(
        failure(() => authorizeRoute(management(), '/api/v1/chat/completions', NOW, op)),
        String(op),
      ).toMatchObject({
        status: 403,
        metadata: { reason: 'inference_credential_required' },
      });
    }
    // Other credentials are not limited by the list.
    expect(() => authorizeRoute(key(), '/api/v1/chat/completions', NOW, 'createChatCompletion')).not.toThrow();
  });

  it('are refused as disabled or expired (401) before their scope is judged', () => {
    expect(
      failure(() =>
        authorizeRoute(management({ disabled: true }), '/api/v1/chat/completions', NOW, 'createChatCompletion'),
      ).status,
    ).toBe(401);
    expect(
      failure(() => authorizeRoute(management({ expiresAt: NOW }), '/api/v1/api-keys', NOW, 'listApiKeys')).status,
    ).toBe(401);
  });

  it('never pass the model check, whatever their allow-list', () => {
    expect(failure(() => checkModelAllowed(management(), 'openai/gpt-4o'))).toMatchObject({
      status: 403,
      metadata: { reason: 'inference_credential_required' },
    });
  });
});

describe('allowed models', () => {
  it('matches exact ids and provider/* patterns only', () => {
    expect(modelAllowed(null, 'openai/gpt-4o')).toBe(true);
    expect(modelAllowed(['openai/*'], 'openai/gpt-4o')).toBe(true);
    expect(modelAllowed(['openai/*'], 'openrouter/openai/gpt-4o')).toBe(false);
    expect(modelAllowed(['pass/*'], 'pass/glm-4.6')).toBe(true);
    expect(modelAllowed(['openai/gpt-4o'], 'openai/gpt-4o-mini')).toBe(false);
    expect(modelAllowed([], 'openai/gpt-4o')).toBe(false);
    expect(failure(() => checkModelAllowed(key({ allowedModels: ['pass/*'] }), 'openai/gpt-4o'))).toMatchObject({
      status: 403,
      metadata: { reason: 'model_not_allowed', model: 'openai/gpt-4o' },
    });
  });
});

describe('limit periods (UTC)', () => {
  it('starts and ends days, ISO weeks and months at UTC boundaries; no reset is one period from the epoch', () => {
    expect(periodStart('daily', NOW).toISOString()).toBe('2026-03-11T00:00:00.000Z');
    expect(periodEnd('daily', NOW)?.toISOString()).toBe('2026-03-12T00:00:00.000Z');
    expect(periodStart('weekly', NOW).toISOString()).toBe('2026-03-09T00:00:00.000Z');
    expect(periodEnd('weekly', NOW)?.toISOString()).toBe('2026-03-16T00:00:00.000Z');
    expect(periodStart('monthly', NOW).toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(periodEnd('monthly', new Date('2026-12-31T23:59:59Z'))?.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(periodStart(null, NOW).getTime()).toBe(0);
    expect(periodEnd(null, NOW)).toBeNull();
    // The last millisecond of a day and the first of the next are in different periods.
    expect(periodStart('daily', new Date('2026-03-10T23:59:59.999Z'))).not.toEqual(
      periodStart('daily', new Date('2026-03-11T00:00:00Z')),
    );
  });
});
