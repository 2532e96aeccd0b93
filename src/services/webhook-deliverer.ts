// The webhook deliverer of one gateway process: it claims due deliveries from the outbox under a lease (so several
// processes never send one at once), signs each as Standard Webhooks says, sends it with a timeout, and records the
// attempt: delivered on a 2xx, else tried again on the retry schedule, failed after the last try. It runs on its
// own timer, never on a request's path, so a slow receiver slows no request.
import { type Agent, request } from 'undici';
import { privateHostReason, publicDestinationAgent } from './webhook-destinations.js';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../db/database.js';
import type { Logger } from '../logger.js';
import { openSecret, type MasterKeys } from '../auth/secret-box.js';
import {
  claimDueDeliveries,
  pruneFinishedDeliveries,
  recordAttempt,
  type ClaimedDelivery,
} from '../repositories/webhook-outbox.js';

/**
 * Delay before each retry, ms: Standard Webhooks' example schedule (as Svix sends): 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h after the first try, which is immediate; eight tries in all, then the delivery is failed.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
];
/** Each delay is spread by up to this fraction either way, so retries of many deliveries do not come in step. */
const JITTER = 0.2;
const DAY_MS = 86_400_000;
const PRUNE_INTERVAL_MS = 3_600_000;
/** An error text kept on an attempt is cut here (a receiver's body is not kept at all). */
const MAX_ERROR_CHARS = 500;

export interface WebhookDelivererOptions {
  db: Db;
  logger: Logger;
  /** The master keys that open signing secrets: the current one, and those being rotated away. */
  masterKey?: MasterKeys;
  /** One attempt's time limit, ms. */
  timeoutMs: number;
  /** Finished deliveries older than this many days are pruned. */
  retentionDays: number;
  /** How often the outbox is looked at, ms (default 1000). */
  pollMs?: number;
  /** Deliveries claimed at a time (default 20). */
  batchSize?: number;
  retryScheduleMs?: readonly number[];
  /** Whether endpoints may be on private or local addresses (otherwise refused per attempt, webhook-destinations.ts). */
  allowPrivateDestinations?: boolean;
  now?: () => Date;
  random?: () => number;
}

export class WebhookDeliverer {
  private timer?: NodeJS.Timeout;
  private pruneTimer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopped = false;
  private readonly now: () => Date;
  private readonly schedule: readonly number[];

  /** Resolves names to public addresses only; undefined when private destinations are allowed. */
  private readonly publicOnly?: Agent;

  constructor(private readonly options: WebhookDelivererOptions) {
    this.now = options.now ?? (() => new Date());
    this.schedule = options.retryScheduleMs ?? RETRY_SCHEDULE_MS;
    if (!options.allowPrivateDestinations) this.publicOnly = publicDestinationAgent();
  }

  start(): void {
    this.timer ??= setInterval(() => void this.tick(), this.options.pollMs ?? 1000).unref();
    this.pruneTimer ??= setInterval(() => void this.prune(), PRUNE_INTERVAL_MS).unref();
    void this.tick();
  }

  /** Waits for the batch being sent (its attempts are recorded) and sends no more. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.pruneTimer);
    await this.running;
    await this.publicOnly?.close();
  }

  private tick(): void {
    void this.runOnce().catch((err: unknown) =>
      this.options.logger.warn({ err }, 'webhook delivery pass failed; retrying on the next pass'),
    );
  }

  /** Sends every delivery due now (one pass at a time per process); returns how many were tried. */
  runOnce(): Promise<number> {
    if (this.stopped) return Promise.resolve(0);
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<number> {
    let tried = 0;
    for (;;) {
      const claimed = await claimDueDeliveries(this.options.db, {
        now: this.now(),
        // Past the attempt's timeout with room to record it: only a process that died leaves a lease to expire.
        leaseMs: this.options.timeoutMs + 30_000,
        limit: this.options.batchSize ?? 20,
      });
      await Promise.all(claimed.map((delivery) => this.deliver(delivery)));
      tried += claimed.length;
      if (claimed.length < (this.options.batchSize ?? 20) || this.stopped) return tried;
    }
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const startedAt = this.now();
    const started = performance.now();
    const { statusCode, error } = await this.send(delivery, startedAt);
    const durationMs = Math.round(performance.now() - started);
    const attempt = delivery.attempts + 1;
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const now = this.now();
    const delay = ok ? undefined : this.schedule[attempt - 1];
    const nextAttemptAt = delay === undefined ? null : new Date(now.getTime() + this.jittered(delay));
    await recordAttempt(this.options.db, {
      deliveryId: delivery.id,
      attempt,
      startedAt,
      durationMs,
      statusCode,
      error,
      status: ok ? 'delivered' : nextAttemptAt === null ? 'failed' : 'pending',
      nextAttemptAt,
      now,
    });
  }

  private jittered(delayMs: number): number {
    const random = this.options.random ?? Math.random;
    return Math.round(delayMs * (1 - JITTER + 2 * JITTER * random()));
  }

  private async send(
    delivery: ClaimedDelivery,
    at: Date,
  ): Promise<{ statusCode: number | null; error: string | null }> {
    try {
      const body = JSON.stringify(delivery.payload);
      const signature = new Webhook(openSecret(delivery.secretCiphertext, this.options.masterKey)).sign(
        delivery.eventId,
        at,
        body,
      );
      // An address in the URL is never looked up: it is checked here, a name when the connection resolves it.
      const reason = this.publicOnly ? privateHostReason(new URL(delivery.url)) : undefined;
      if (reason !== undefined) return { statusCode: null, error: `refused: ${reason}, not a public address` };
      const response = await request(delivery.url, {
        dispatcher: this.publicOnly,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Modelgate-Webhooks',
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      // The receiver's answer is not kept: only its status counts.
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { statusCode: response.statusCode, error: ok ? null : `HTTP ${response.statusCode}` };
    } catch (err) {
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      return { statusCode: null, error: message.slice(0, MAX_ERROR_CHARS) };
    }
  }

  /** Deletes finished deliveries past the retention; never rejects. */
  async prune(): Promise<void> {
    const cutoff = new Date(this.now().getTime() - this.options.retentionDays * DAY_MS);
    try {
      const deleted = await pruneFinishedDeliveries(this.options.db, cutoff);
      if (deleted > 0) this.options.logger.info({ deleted }, 'pruned finished webhook deliveries');
    } catch (err) {
      this.options.logger.warn({ err }, 'pruning webhook deliveries failed; retrying on the next pass');
    }
  }
}
