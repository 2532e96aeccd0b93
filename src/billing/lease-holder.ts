import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

/** Names this process in credit_leases and budget_leases: readable for operators, unique across restarts and hosts. */
export function leaseHolderId(): string {
  return `${hostname()}/${process.pid}/${randomBytes(6).toString('hex')}`;
}
