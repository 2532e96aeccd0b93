// Sealed secrets: envelope encryption under MODELGATE_ENCRYPTION_KEY, readable only under the key that sealed them.
import { describe, expect, it } from 'vitest';
import { openSecret, parseMasterKey, sealSecret } from '../../src/auth/secret-box.js';
import { ConfigError, loadConfig } from '../../src/config.js';

const master = parseMasterKey(Buffer.alloc(32, 1).toString('base64'));
const other = parseMasterKey('ab'.repeat(32));

describe('secret box', () => {
  it('seals a secret so it reads back only under the same master key', () => {
    const sealed = sealSecret('whsec_abc', master);
    expect(sealed.startsWith(`v1:${master?.id}:`)).toBe(true);
    expect(sealed).not.toContain('abc');
    expect(openSecret(sealed, master)).toBe('whsec_abc');
    expect(sealSecret('whsec_abc', master)).not.toBe(sealed);
    expect(() => openSecret(sealed, other)).toThrow(/not configured/);
    expect(() => openSecret(sealed, undefined)).toThrow(/not configured/);
  });

  it('keeps a secret as given without a master key, and reads it back with or without one', () => {
    const kept = sealSecret('whsec_abc', undefined);
    expect(openSecret(kept, undefined)).toBe('whsec_abc');
    expect(openSecret(kept, master)).toBe('whsec_abc');
  });

  it('refuses a configured key that is not 32 bytes, naming the variable', () => {
    expect(() => loadConfig({ MODELGATE_ENCRYPTION_KEY: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODELGATE_ENCRYPTION_KEY: 'short' })).toThrow(/MODELGATE_ENCRYPTION_KEY/);
    expect(loadConfig({ MODELGATE_ENCRYPTION_KEY: 'ab'.repeat(32) }).encryptionKey?.id).toBe(other?.id);
  });
});
