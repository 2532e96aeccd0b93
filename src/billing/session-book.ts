// What this process knows of the sessions it served: each one's budget and spend, read from the database the first
// time the process sees the session (one statement) and kept up to date by its own settlements, so the following
// requests of the session need no SQL statement before the upstream call. A spend settled by another instance is
// seen when the entry is read again (after REFRESH_MS, in the background). Only a budget lowered by a request's
// header costs a statement of its own.
import { createHash } from 'node:crypto';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { openSession } from '../repositories/sessions.js';

/** Entries kept; the oldest seen is forgotten first. */
const MAX_SESSIONS = 10_000;
const REFRESH_MS = 30_000;

export interface KnownSession {
  organizationId: string;
  hash: string;
  budgetNanos: bigint | null;
  spentNanos: bigint;
  readAt: number;
  refreshing?: Promise<void>;
}

/** The stored name of a session: the SHA-256 of its organization and the client's key (the key is never stored). */
export function sessionHash(organizationId: string, sessionKey: string): string {
  return createHash('sha256').update(organizationId).update('\u0000').update(sessionKey).digest('hex');
}

export class SessionBook {
  private readonly sessions = new Map<string, KnownSession>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The session, opened (and its budget set or lowered) in the database when needed. */
  async open(organizationId: string, sessionKey: string, budgetNanos?: bigint): Promise<KnownSession> {
    const hash = sessionHash(organizationId, sessionKey);
    const id = `${organizationId}:${hash}`;
    const known = this.sessions.get(id);
    const lowers = budgetNanos !== undefined && (known?.budgetNanos == null || budgetNanos < known.budgetNanos);
    if (known !== undefined && !lowers) {
      if (this.clock() - known.readAt > REFRESH_MS && known.refreshing === undefined) this.refresh(known);
      return known;
    }
    const read = await openSession(this.db, { organizationId, sessionHash: hash, budgetNanos });
    const session: KnownSession = { organizationId, hash, ...read, readAt: this.clock() };
    this.sessions.delete(id);
    this.sessions.set(id, session);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    return session;
  }

  private refresh(session: KnownSession): void {
    session.refreshing = openSession(this.db, { organizationId: session.organizationId, sessionHash: session.hash })
      .then((read) => {
        session.budgetNanos = read.budgetNanos;
        session.spentNanos = read.spentNanos;
        session.readAt = this.clock();
      })
      .catch((err: unknown) => this.logger.warn({ err }, 'could not read a session'))
      .finally(() => {
        session.refreshing = undefined;
      });
  }
}
