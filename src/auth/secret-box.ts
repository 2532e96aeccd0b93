// Secrets the gateway must read back in clear (a webhook's signing secret) are sealed with envelope encryption:
// a fresh AES-256-GCM data key per secret, itself wrapped by the master key MODELGATE_ENCRYPTION_KEY, and the
// master key's id kept beside the ciphertext so the master key can be rotated (re-wrapping data keys only: while
// rotating, the previous master keys still open what they wrapped; src/services/encryption-rotation.ts re-wraps).
// Without a master key a secret is kept as given, marked so; docs/webhooks.md says what that means.
import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const PLAIN = 'plain';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface MasterKey {
  /** 32 bytes. */
  key: Buffer;
  /** Names the key in every ciphertext it wraps: the first 8 hex digits of its SHA-256. */
  id: string;
}

/** The master key from its configured text: 32 bytes as base64 (44 characters) or hex (64); undefined when unusable. */
export function parseMasterKey(text: string): MasterKey | undefined {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) return undefined;
  return { key, id: hash('sha256', key, 'hex').slice(0, 8) };
}

function encrypt(key: Buffer, clear: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(clear), cipher.final(), cipher.getAuthTag()]);
  return `${iv.toString('base64url')}.${body.toString('base64url')}`;
}

function decrypt(key: Buffer, sealed: string): Buffer {
  const [iv, body] = sealed.split('.');
  const bytes = Buffer.from(body ?? '', 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]);
}

/** `v1:<key id>:<wrapped data key>:<ciphertext>`, or `plain:<secret>` without a master key. */
export function sealSecret(secret: string, master: MasterKey | undefined): string {
  if (!master) return `${PLAIN}:${secret}`;
  const dataKey = randomBytes(32);
  return [VERSION, master.id, encrypt(master.key, dataKey), encrypt(dataKey, Buffer.from(secret, 'utf8'))].join(':');
}

/** The master keys a process can open secrets with: the current one (which also seals) and any being rotated away. */
export type MasterKeys = MasterKey | readonly (MasterKey | undefined)[] | undefined;

function keyNamed(keys: MasterKeys, id: string): MasterKey | undefined {
  const list = Array.isArray(keys) ? keys : [keys as MasterKey | undefined];
  return list.find((key): key is MasterKey => key?.id === id);
}

/** The id of the master key a sealed secret's data key is wrapped by; undefined for a secret kept as given. */
export function sealedKeyId(sealed: string): string | undefined {
  if (sealed.startsWith(`${PLAIN}:`)) return undefined;
  return sealed.split(':')[1];
}

function parts(sealed: string): { keyId: string; wrapped: string; body: string } {
  const [version, keyId, wrapped, body] = sealed.split(':');
  if (version !== VERSION || keyId === undefined || wrapped === undefined || body === undefined)
    throw new Error('Unknown sealed secret format');
  return { keyId, wrapped, body };
}

function dataKeyOf(keys: MasterKeys, keyId: string, wrapped: string): Buffer {
  const master = keyNamed(keys, keyId);
  if (!master) throw new Error(`The secret is sealed under encryption key ${keyId}, which is not configured`);
  return decrypt(master.key, wrapped);
}

/** The secret in clear; throws when it was sealed under a master key that is not among those given. */
export function openSecret(sealed: string, keys: MasterKeys): string {
  if (sealed.startsWith(`${PLAIN}:`)) return sealed.slice(PLAIN.length + 1);
  const { keyId, wrapped, body } = parts(sealed);
  return decrypt(dataKeyOf(keys, keyId, wrapped), body).toString('utf8');
}

/**
 * The same secret with its data key wrapped by `to` (the ciphertext of the secret itself is kept); a secret kept as
 * given is sealed now. Unchanged when already wrapped by `to`. Throws as openSecret does.
 */
export function rewrapSecret(sealed: string, keys: MasterKeys, to: MasterKey): string {
  if (sealed.startsWith(`${PLAIN}:`)) return sealSecret(sealed.slice(PLAIN.length + 1), to);
  const { keyId, wrapped, body } = parts(sealed);
  if (keyId === to.id) return sealed;
  return [VERSION, to.id, encrypt(to.key, dataKeyOf(keys, keyId, wrapped)), body].join(':');
}
