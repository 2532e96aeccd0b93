// Credential secrets: generated with 192 bits of entropy, stored only as a SHA-256 hash plus a short display prefix.
import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

export type SecretKind = 'api_key' | 'management_key' | 'account_token' | 'admin_key';

/**
 * Readable prefixes tell a leaked secret's kind at a glance (and let secret scanners match them). A management key
 * is a row of api_keys like an inference key, but its own prefix keeps it from ever reading as one (a gateway of
 * the release before management keys refuses `mgm-v1-` outright).
 */
const PREFIX: Record<SecretKind, string> = {
  api_key: 'mg-v1-',
  management_key: 'mgm-v1-',
  account_token: 'mgt-v1-',
  admin_key: 'mga-v1-',
};
const DISPLAY_CHARS = 8;

export interface NewSecret {
  /** The value shown to its owner once; never stored. */
  secret: string;
  hash: string;
  displayPrefix: string;
}

/** SHA-256, hex. Every request hashes its credential: the one-shot `hash` takes ~0.7 µs, a Hash object ~1.7 µs. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function newSecret(kind: SecretKind): NewSecret {
  const secret = PREFIX[kind] + randomBytes(24).toString('base64url');
  return { secret, hash: hashSecret(secret), displayPrefix: displayPrefix(secret) };
}

export function displayPrefix(secret: string): string {
  const kind = PREFIX[secretKindOf(secret) ?? 'api_key'];
  return `${secret.slice(0, kind.length + DISPLAY_CHARS)}...`;
}

export function secretKindOf(secret: string): SecretKind | undefined {
  if (secret.startsWith(PREFIX.account_token)) return 'account_token';
  if (secret.startsWith(PREFIX.admin_key)) return 'admin_key';
  if (secret.startsWith(PREFIX.management_key)) return 'management_key';
  if (secret.startsWith(PREFIX.api_key)) return 'api_key';
  return undefined;
}

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A one-time invitation token (`mgi-v1-`): not a credential, but stored only as its hash as one is. */
export function newInvitationToken(): { token: string; hash: string } {
  const token = `mgi-v1-${randomBytes(24).toString('base64url')}`;
  return { token, hash: hashSecret(token) };
}

/** Ids are public, so they only need uniqueness, not secrecy. */
export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}
