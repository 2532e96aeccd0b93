// Whose credits or pass a command changes: `--email E` (the user's personal organization, whose id is the user's) or
// `--org ID` (any organization), exactly one of them. What the output then names: the e-mail or the organization.
import type { Db } from '../db/database.js';
import { requireOrganization } from '../services/organizations.js';
import { requireEmail, requireUser, UsageError } from './command.js';
import { asCommand } from './service-refusals.js';

export interface WalletOption {
  email?: string;
  org?: string;
}

/** Checked before the database is opened: a usage error needs none. */
export function checkWalletOption(values: WalletOption): { email?: string; org?: string } {
  if (values.org !== undefined && values.email !== undefined)
    throw new UsageError('give either --email (a user) or --org (an organization), not both');
  if (values.org !== undefined) {
    const org = values.org.trim();
    if (org === '') throw new UsageError('--org must be an organization id');
    return { org };
  }
  return { email: requireEmail(values.email) };
}

/** The organization id and how the output names it (`ada@example.com`, `organization org_...`). */
export async function resolveWallet(
  db: Db,
  wallet: { email?: string; org?: string },
): Promise<{ id: string; label: string; json: Record<string, string> }> {
  if (wallet.org !== undefined) {
    const org = await asCommand(requireOrganization(db, wallet.org));
    return { id: org.id, label: `organization ${org.id} (${org.name})`, json: { organization_id: org.id } };
  }
  const email = wallet.email ?? '';
  const user = await requireUser(db, email);
  return { id: user.id, label: email, json: { email } };
}
