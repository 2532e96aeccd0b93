// Sealed secrets: envelope encryption under MODELGATE_ENCRYPTION_KEY, readable only under the key that sealed them.
import { describe, expect, it } from 'vitest';
import { openSecret, parseMasterKey, rewrapSecret, sealSecret, sealedKeyId } from '../../src/auth/secret-box.js';
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

  it('opens a secret with any of the keys given, the current one or a previous one', () => {
    const sealed = sealSecret('sk-own-key', other);
    expect(openSecret(sealed, [master, other])).toBe('sk-own-key');
    expect(openSecret(sealed, [undefined, other])).toBe('sk-own-key');
    expect(() => openSecret(sealed, [master])).toThrow(/not configured/);
  });

  it('re-wraps the data key under a new master key, keeping the ciphertext of the secret itself', () => {
    const sealed = sealSecret('sk-own-key', other);
    const rewrapped = rewrapSecret(sealed, [master, other], master!);
    expect(sealedKeyId(rewrapped)).toBe(master?.id);
    expect(rewrapped.split(':')[3]).toBe(sealed.split(':')[3]);
    expect(openSecret(rewrapped, master)).toBe('sk-own-key');
    expect(() => openSecret(rewrapped, other)).toThrow(/not configured/);
    // Already under it: unchanged. Kept as given: sealed now. Under a key not given: refused.
    expect(rewrapSecret(rewrapped, [master], master!)).toBe(rewrapped);
    const plain = rewrapSecret(sealSecret('whsec_abc', undefined), [], master!);
    expect(openSecret(plain, master)).toBe('whsec_abc');
    expect(plain).not.toContain('abc');
    expect(() => rewrapSecret(sealed, [master], master!)).toThrow(/not configured/);
  });

  it('reads the previous master keys, comma-separated, naming the variable when one is not a key', () => {
    const config = loadConfig({
      MODELGATE_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      MODELGATE_ENCRYPTION_KEY_PREVIOUS: ` ${'ab'.repeat(32)} , ${'cd'.repeat(32)}`,
    });
    expect(config.previousEncryptionKeys.map((k) => k.id)).toEqual([other?.id, parseMasterKey('cd'.repeat(32))?.id]);
    expect(loadConfig({}).previousEncryptionKeys).toEqual([]);
    expect(() => loadConfig({ MODELGATE_ENCRYPTION_KEY_PREVIOUS: `${'ab'.repeat(32)},short` })).toThrow(
      /MODELGATE_ENCRYPTION_KEY_PREVIOUS entry 2/,
    );
    expect(loadConfig({ MODELGATE_BYOK_FEE: '0.05' }).byokFeePpm).toBe(50_000);
    expect(() => loadConfig({ MODELGATE_BYOK_FEE: '2' })).toThrow(/MODELGATE_BYOK_FEE/);
  });
});
