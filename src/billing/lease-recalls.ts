// Recalling credit leases across processes. A process that cannot get the credit a request (or a credit removal)
// needs because other processes lease it asks them, on the channel `modelgate_credit_leases`, to give back the part
// no request of theirs holds; each named holder gives it back and answers in the same transaction, so the asker, once
// it has heard every answer, finds the credit unreserved. Messages are small JSON objects:
//   {"t":"recall","u":<user id>,"h":[<holder>, ...]}   give back your unused lease of this user
//   {"t":"released","u":<user id>,"h":<holder>}       done (sent also when there was nothing to give back)
//   {"t":"budget","b":<budget id>}                     a budget's limit changed (a database trigger says so, migration
//                                                      0023): every process gives back its unused leases of it
// A process that cannot hear the channel (no listener, or its connection is down) still sends recalls, but cannot
// hear answers: it waits a short poll interval and lets the caller try again.
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { listenOnChannel, type ChannelListener, type NotificationSource } from '../db/notification-listener.js';
import { CREDIT_LEASE_CHANNEL, notifyLeaseChannel } from '../repositories/credit-leases.js';

export type LeaseMessage =
  | { t: 'recall'; u: string; h: string[] }
  | { t: 'released'; u: string; h: string }
  | { t: 'budget'; b: string };

/** NOTIFY payloads are limited to 8000 bytes: a long list of holders goes out in several messages. */
const MAX_PAYLOAD_BYTES = 7000;

export function encodeRecall(userId: string, holders: readonly string[]): string[] {
  const payloads: string[] = [];
  let batch: string[] = [];
  let size = 0;
  for (const holder of holders) {
    const bytes = Buffer.byteLength(JSON.stringify(holder)) + 1;
    if (batch.length > 0 && size + bytes > MAX_PAYLOAD_BYTES) {
      payloads.push(JSON.stringify({ t: 'recall', u: userId, h: batch }));
      batch = [];
      size = 0;
    }
    batch.push(holder);
    size += bytes;
  }
  if (batch.length > 0) payloads.push(JSON.stringify({ t: 'recall', u: userId, h: batch }));
  return payloads;
}

export function encodeAnswer(userId: string, holder: string): string {
  return JSON.stringify({ t: 'released', u: userId, h: holder });
}

/** Anything that is not one of the three messages (another release's, garbage) is ignored. */
export function decodeLeaseMessage(payload: string): LeaseMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { t, u, h, b } = value as Record<string, unknown>;
  if (t === 'budget' && typeof b === 'string') return { t, b };
  if (typeof u !== 'string') return undefined;
  if (t === 'recall' && Array.isArray(h) && h.every((x) => typeof x === 'string')) return { t, u, h: h as string[] };
  if (t === 'released' && typeof h === 'string') return { t, u, h };
  return undefined;
}

export interface LeaseRecallOptions {
  /** How long an asker waits for the answers before it goes on without the missing ones (a holder that died). */
  timeoutMs: number;
  /** How long an asker that cannot hear answers waits before it looks again. */
  pollMs: number;
  /** First delay before listening again after the connection was lost (doubles up to 30 s). */
  reconnectDelayMs: number;
}

export const DEFAULT_RECALL_OPTIONS: LeaseRecallOptions = { timeoutMs: 1_000, pollMs: 25, reconnectDelayMs: 500 };

/** What a process that holds leases does with what it hears on the channel. */
export interface LeaseHolderHandlers {
  /** A recall names this process: give the unused part of its lease of this user back, and answer. */
  giveBack(userId: string): Promise<void>;
  /** Any recall of this user, named or not: the user's credit is contended, lease no more than requests need. */
  contended(userId: string): void;
  /** A budget's limit changed: give back the unused part of every lease of it (no answer is awaited). */
  budgetChanged(budgetId: string): Promise<void>;
  /** false: a message could have been missed (connection lost); true: listening again. */
  listeningChanged(listening: boolean): void;
}

export class LeaseRecalls {
  private listener?: ChannelListener;
  /** Askers waiting for an answer, by user and holder: each resolves with whether the answer came. */
  private readonly waiting = new Map<string, Set<(answered: boolean) => void>>();
  private served?: { holder: string; handlers: LeaseHolderHandlers };

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    readonly options: LeaseRecallOptions = DEFAULT_RECALL_OPTIONS,
  ) {}

  /** Whether every message on the channel reaches this process right now. */
  get listening(): boolean {
    return this.listener?.listening ?? false;
  }

  /** Starts listening where the database allows it; false when it allows nothing (the process then never hears). */
  async listen(source: NotificationSource): Promise<boolean> {
    this.listener ??= await listenOnChannel(source, {
      channel: CREDIT_LEASE_CHANNEL,
      logger: this.logger,
      initialDelayMs: this.options.reconnectDelayMs,
      onPayload: (payload) => this.heard(payload),
      onListening: (listening) => {
        // Answers sent while we were deaf are lost: nobody may wait for them any longer.
        if (!listening) this.answerAll(false);
        this.served?.handlers.listeningChanged(listening);
      },
    });
    return this.listener !== undefined;
  }

  /** This process holds leases as `holder`: it hears every recall, and answers those that name it. */
  serve(holder: string, handlers: LeaseHolderHandlers): void {
    this.served = { holder, handlers };
  }

  /**
   * Asks `holders` to give back their unused leases of `userId`. Resolves true once every one has answered (their
   * credit is then unreserved), false after the timeout or at once (after a poll interval) when this process cannot
   * hear answers.
   */
  async recall(userId: string, holders: readonly string[]): Promise<boolean> {
    if (holders.length === 0) return true;
    if (!this.listening) {
      for (const payload of encodeRecall(userId, holders)) await notifyLeaseChannel(this.db, payload);
      await sleep(this.options.pollMs);
      return false;
    }
    // Waiting before asking: an answer may arrive before the NOTIFY call returns.
    const answers = holders.map((holder) => this.answerFrom(userId, holder));
    const timer = setTimeout(() => {
      for (const answer of answers) answer.give(false);
    }, this.options.timeoutMs);
    try {
      for (const payload of encodeRecall(userId, holders)) await notifyLeaseChannel(this.db, payload);
      const answered = await Promise.all(answers.map((answer) => answer.promise));
      return answered.every(Boolean);
    } finally {
      clearTimeout(timer);
      for (const answer of answers) answer.give(false);
    }
  }

  async close(): Promise<void> {
    this.answerAll(false);
    await this.listener?.close();
  }

  private answerFrom(userId: string, holder: string): { promise: Promise<boolean>; give: (answered: boolean) => void } {
    const key = waitKey(userId, holder);
    let give!: (answered: boolean) => void;
    const promise = new Promise<boolean>((resolve) => {
      give = (answered) => {
        this.waiting.get(key)?.delete(give);
        if (this.waiting.get(key)?.size === 0) this.waiting.delete(key);
        resolve(answered);
      };
    });
    let waiters = this.waiting.get(key);
    if (waiters === undefined) {
      waiters = new Set();
      this.waiting.set(key, waiters);
    }
    waiters.add(give);
    return { promise, give };
  }

  private answerAll(answered: boolean): void {
    for (const waiters of [...this.waiting.values()]) for (const give of [...waiters]) give(answered);
  }

  private heard(payload: string): void {
    const message = decodeLeaseMessage(payload);
    if (message === undefined) return;
    if (message.t === 'released') {
      for (const give of [...(this.waiting.get(waitKey(message.u, message.h)) ?? [])]) give(true);
      return;
    }
    const served = this.served;
    if (served === undefined) return;
    if (message.t === 'budget') {
      served.handlers.budgetChanged(message.b).catch((err: unknown) => {
        this.logger.warn({ err, budget: message.b }, 'could not give back the leases of a changed budget');
      });
      return;
    }
    served.handlers.contended(message.u);
    if (!message.h.includes(served.holder)) return;
    served.handlers.giveBack(message.u).catch((err: unknown) => {
      this.logger.warn({ err, user_id: message.u }, 'could not answer a credit lease recall');
    });
  }
}

function waitKey(userId: string, holder: string): string {
  return `${userId}\u0000${holder}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
