// Who may create, change and delete which key (src/auth/key-scopes.ts), as the table in its header says.
import { describe, expect, it } from 'vitest';
import { authorizeKeyChange, authorizeKeyCreation, authorizeKeyTarget } from '../../src/auth/key-scopes.js';
import type { Principal } from '../../src/auth/principal.js';
import { GatewayError } from '../../src/core/gateway-error.js';

const limits = { rateLimitRpm: null, rateLimitTpm: null, freeRequestsPerDay: null, creditLimitNanos: null };
const as = (kind: Principal['kind'], credentialId: string): Principal => ({
  kind,
  organizationId: 'usr_1',
  memberUserId: 'usr_1',
  role: 'owner',
  email: 'a@b.c',
  credentialId,
  limits,
});
const inference = as('api_key', 'key_self');
const management = as('management_key', 'key_manager');
const token = as('account_token', 'tok_1');

function reason(fn: () => void): string | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).status).toBe(403);
    return (err as GatewayError).metadata.reason as string;
  }
}

describe('key scopes', () => {
  it('creation: the token makes either kind, a management key inference keys only, an API key none', () => {
    expect(reason(() => authorizeKeyCreation(token, 'inference'))).toBeUndefined();
    expect(reason(() => authorizeKeyCreation(token, 'management'))).toBeUndefined();
    expect(reason(() => authorizeKeyCreation(management, 'inference'))).toBeUndefined();
    expect(reason(() => authorizeKeyCreation(management, 'management'))).toBe('account_token_required');
    expect(reason(() => authorizeKeyCreation(inference, 'inference'))).toBe('management_credential_required');
    expect(reason(() => authorizeKeyCreation(inference, 'management'))).toBe('management_credential_required');
  });

  it('an API key deletes only itself and changes nothing, decided before any lookup', () => {
    expect(reason(() => authorizeKeyChange(inference, 'delete', 'key_self'))).toBeUndefined();
    expect(reason(() => authorizeKeyChange(inference, 'delete', 'key_other'))).toBe('management_credential_required');
    expect(reason(() => authorizeKeyChange(inference, 'update', 'key_self'))).toBe('management_credential_required');
    expect(reason(() => authorizeKeyChange(inference, 'update', 'key_other'))).toBe('management_credential_required');
    for (const other of [management, token]) {
      for (const change of ['update', 'delete'] as const)
        expect(reason(() => authorizeKeyChange(other, change, 'key_other'))).toBeUndefined();
    }
  });

  it("a management key manages inference keys and deletes itself; other management keys are the token's", () => {
    const target = (id: string, kind: 'inference' | 'management') => ({ id, kind });
    for (const change of ['update', 'delete'] as const) {
      expect(reason(() => authorizeKeyTarget(management, change, target('key_x', 'inference')))).toBeUndefined();
      expect(reason(() => authorizeKeyTarget(management, change, target('key_y', 'management')))).toBe(
        'account_token_required',
      );
      expect(reason(() => authorizeKeyTarget(token, change, target('key_y', 'management')))).toBeUndefined();
    }
    expect(reason(() => authorizeKeyTarget(management, 'delete', target('key_manager', 'management')))).toBeUndefined();
    expect(reason(() => authorizeKeyTarget(management, 'update', target('key_manager', 'management')))).toBe(
      'account_token_required',
    );
  });
});
