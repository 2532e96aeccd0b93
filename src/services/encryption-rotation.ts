// Master key rotation: every sealed secret (organizations' provider keys, webhook signing secrets) gets its data key
// re-wrapped by the current master key, while gateways keep serving: they open secrets with the current key or any
// previous one (MODELGATE_ENCRYPTION_KEY_PREVIOUS), and each re-wrapped provider key row tells them to reload it.
// Only the wrapped data key changes, never the secret's own ciphertext; a row changed meanwhile is left as it is.
import { rewrapSecret, sealedKeyId, type MasterKey } from '../auth/secret-box.js';
import type { DbOrTrx } from '../db/database.js';
import { replaceProviderKeyCiphertext, sealedProviderKeys } from '../repositories/provider-keys.js';
import { replaceWebhookSecretCiphertext, sealedWebhookSecrets } from '../repositories/webhook-endpoints.js';

export interface RotationReport {
  /** Secrets re-wrapped now, by kind. */
  rewrapped: { providerKeys: number; webhookSecrets: number };
  /** Secrets already wrapped by the current key. */
  current: number;
  /** Secrets no configured key opens: what they are and which key id wraps them (never the secret). */
  unreadable: Array<{ kind: 'provider_key' | 'webhook_secret'; id: string; keyId: string | undefined }>;
}

export async function rotateEncryption(
  db: DbOrTrx,
  keys: { current: MasterKey; previous: readonly MasterKey[] },
): Promise<RotationReport> {
  const report: RotationReport = { rewrapped: { providerKeys: 0, webhookSecrets: 0 }, current: 0, unreadable: [] };
  const all = [keys.current, ...keys.previous];
  const rewrap = (sealed: string): string | undefined => {
    try {
      return rewrapSecret(sealed, all, keys.current);
    } catch {
      return undefined;
    }
  };
  for (const row of await sealedProviderKeys(db)) {
    const id = `${row.organization_id}/${row.provider}`;
    const to = rewrap(row.key_ciphertext);
    if (to === undefined) report.unreadable.push({ kind: 'provider_key', id, keyId: sealedKeyId(row.key_ciphertext) });
    else if (to === row.key_ciphertext) report.current++;
    else if (
      await replaceProviderKeyCiphertext(db, {
        organizationId: row.organization_id,
        provider: row.provider,
        from: row.key_ciphertext,
        to,
      })
    )
      report.rewrapped.providerKeys++;
  }
  for (const row of await sealedWebhookSecrets(db)) {
    const to = rewrap(row.secret_ciphertext);
    if (to === undefined)
      report.unreadable.push({ kind: 'webhook_secret', id: row.id, keyId: sealedKeyId(row.secret_ciphertext) });
    else if (to === row.secret_ciphertext) report.current++;
    else if (await replaceWebhookSecretCiphertext(db, { id: row.id, from: row.secret_ciphertext, to }))
      report.rewrapped.webhookSecrets++;
  }
  return report;
}
