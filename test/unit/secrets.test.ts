// Credential hashing: SHA-256 hex (the stored form, so it must never change), and the shape of new secrets.
import { describe, expect, it } from 'vitest';
import { hashSecret, hashesEqual, newSecret, secretKindOf } from '../../src/auth/secrets.js';

describe('secrets', () => {
  it('hashes with SHA-256 as hex (FIPS 180-2 test vectors; text as UTF-8)', () => {
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashSecret('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hashSecret('é')).toBe('4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c'); // UTF-8 bytes
  });

  it('makes secrets of each kind whose stored hash matches in constant-time comparison', () => {
    const key = newSecret('api_key');
    expect(key.secret).toMatch(/^mg-v1-[A-Za-z0-9_-]{32}$/);
    expect(secretKindOf(key.secret)).toBe('api_key');
    expect(hashesEqual(key.hash, hashSecret(key.secret))).toBe(true);
    expect(hashesEqual(key.hash, hashSecret(`${key.secret}x`))).toBe(false);
    expect(secretKindOf(newSecret('account_token').secret)).toBe('account_token');
  });

  it('gives management keys a prefix of their own that never reads as an inference key', () => {
    const management = newSecret('management_key');
    expect(management.secret).toMatch(/^mgm-v1-[A-Za-z0-9_-]{32}$/);
    expect(secretKindOf(management.secret)).toBe('management_key');
    expect(management.displayPrefix).toBe(`${management.secret.slice(0, 15)}...`);
    expect(management.secret.startsWith('mg-v1-')).toBe(false);
  });
});
