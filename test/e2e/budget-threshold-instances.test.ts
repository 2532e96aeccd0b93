// budget.threshold exactly once across instances: two `modelgate serve` processes on one PostgreSQL database and one
// Redis settle concurrent requests of one organization's budget, and of one key's USD limit; each fraction crossed is
// delivered once, to a real HTTP receiver, whichever instance settled the request that crossed it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { runCli } from '../../src/cli.js';
import { OPERATOR } from '../../src/auth/member-roles.js';
import { CONSOLE_ACTOR } from '../../src/services/audit-log.js';
import { createWebhook } from '../../src/services/webhooks.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../helpers/redis-server.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { requestOnce, startServe, type ServeProcess } from '../helpers/serve-process.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

const work = mkdtempSync(path.join(tmpdir(), 'modelgate-thresholds-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** 10 prompt + 10 completion tokens of openai/gpt-test ($2/M in, $8/M out): 100,000 nano-USD. */
const COST = 100_000n;
const ANSWER = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-test-2026',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
};
const FRACTIONS = [0.5, 0.8, 1];

describeWithPostgres('budget.threshold across two instances', () => {
  describeWithRedis('on one PostgreSQL and one Redis', () => {
    let database: OpenTestDatabase;
    let upstream: MockUpstream;
    let receiver: WebhookReceiver;
    let instances: ServeProcess[] = [];
    let cliEnv: NodeJS.ProcessEnv;

    const cli = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(argv, cliEnv, { out: (line) => out.push(line), err: (line) => err.push(line) });
      if (code !== 0) throw new Error(`modelgate ${argv.join(' ')} failed: ${err.join('\n')}`);
      return out.join('\n');
    };

    /** A user (its personal organization) with credits, a key, and an endpoint receiving budget.threshold. */
    const organization = async () => {
      const email = `thresholds-${Math.random().toString(36).slice(2)}@example.com`;
      await cli('users', 'create', '--email', email);
      await cli('credits', 'add', '--email', email, '--usd', '10');
      const { key_id: keyId, key } = JSON.parse(await cli('keys', 'create', '--email', email, '--json')) as {
        key_id: string;
        key: string;
      };
      const { id: orgId } = await database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      const { secret } = await createWebhook(
        database.db,
        { actor: OPERATOR, audit: CONSOLE_ACTOR },
        {
          organizationId: orgId,
          settings: { url: receiver.url, eventTypes: ['budget.threshold'], budgetThresholds: FRACTIONS },
          allowPrivate: true,
        },
      );
      return { orgId, keyId, key, secret };
    };

    const chat = (instance: ServeProcess, key: string) =>
      requestOnce(`${instance.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'openai/gpt-test',
          messages: [{ role: 'user', content: 'hi' }],
          stream: false,
          max_tokens: 10,
        }),
      });

    /** Rounds of four concurrent requests, two on each instance, until `spent()` reaches `target`. */
    const spendUntil = async (key: string, spent: () => Promise<bigint>, target: bigint) => {
      for (let round = 0; round < 8 && (await spent()) < target; round++) {
        const answers = await Promise.all([0, 1, 2, 3].map((i) => chat(instances[i % 2], key)));
        for (const answer of answers) expect([200, 402]).toContain(answer.status);
      }
      return spent();
    };

    /** The budget.threshold events the receiver got for `budgetId`, once every queued delivery was made. */
    const delivered = async (orgId: string, budgetId: string, secret: string) => {
      for (let i = 0; i < 200; i++) {
        const pending = await database.db
          .selectFrom('webhook_deliveries as d')
          .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
          .select('d.id')
          .where('e.organization_id', '=', orgId)
          .where('d.status', '<>', 'delivered')
          .execute();
        if (pending.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const verifier = new Webhook(secret);
      return receiver.received
        .map((r) => {
          try {
            return verifier.verify(r.body, r.headers) as { type: string; data: Record<string, any> };
          } catch {
            return undefined; // another organization's endpoint signs with its own secret
          }
        })
        .filter((event) => event !== undefined && event.data.budget_id === budgetId);
    };

    /**
     * Spends with `key` on both instances until the budget's settled spend reaches 80% of `limit`; the events delivered,
     * once each checked to be exactly the fractions the settled total crossed.
     */
    const crossEightyPercent = async (input: {
      orgId: string;
      key: string;
      secret: string;
      limit: bigint;
      budgetId: string;
    }) => {
      const spent = async () => {
        const rows = await database.db
          .selectFrom('budget_spend')
          .select('spent_nanos')
          .where('budget_id', '=', input.budgetId)
          .execute();
        return rows.reduce((sum, row) => sum + row.spent_nanos, 0n);
      };
      const total = await spendUntil(input.key, spent, (input.limit * 8n) / 10n);
      expect(total).toBeGreaterThanOrEqual((input.limit * 8n) / 10n);
      const events = await delivered(input.orgId, input.budgetId, input.secret);
      const crossed = FRACTIONS.filter((f) => total >= (input.limit * BigInt(f * 10)) / 10n);
      expect(events.map((e) => e!.data.threshold).sort()).toEqual(crossed);
      return events;
    };

    beforeAll(async () => {
      upstream = await new MockUpstream().start();
      upstream.always({ kind: 'json', body: ANSWER });
      receiver = await startWebhookReceiver();
      database = await openTestDatabase('postgres', { migrated: true });
      cliEnv = { DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
      const env = {
        DATABASE_URL: database.url!,
        MODELGATE_REDIS_URL: testRedisUrl(),
        MODELGATE_REDIS_PREFIX: uniqueRedisPrefix(),
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        MODELGATE_WEBHOOK_ALLOW_PRIVATE: 'true',
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
      };
      instances = await Promise.all(
        ['a', 'b'].map((name) => startServe({ env, logFile: path.join(work, `${name}.log`) })),
      );
    }, 120_000);
    afterAll(async () => {
      for (const instance of instances) instance.child.kill('SIGKILL');
      await upstream?.close();
      await receiver?.close();
      await database?.close();
    });

    it("delivers each fraction of an organization's budget once", async () => {
      const { orgId, key, secret } = await organization();
      const limit = 10n * COST;
      await database.db
        .updateTable('organizations')
        .set({ budget_limit_nanos: limit, budget_reset: 'daily' })
        .where('id', '=', orgId)
        .execute();
      const events = await crossEightyPercent({ orgId, key, secret, limit, budgetId: `organization:${orgId}` });
      expect(events[0]!.data).toMatchObject({ organization_id: orgId, budget: 'organization', limit_usd: 0.001 });
    });

    it("delivers each fraction of a key's USD limit once, naming the key and never its secret", async () => {
      const { orgId, keyId, key, secret } = await organization();
      const limit = 10n * COST;
      await database.db.updateTable('api_keys').set({ credit_limit_nanos: limit }).where('id', '=', keyId).execute();
      // A key's limit is a budget like the others: its settled spend is in budget_spend.
      const events = await crossEightyPercent({ orgId, key, secret, limit, budgetId: `key:${orgId}:${keyId}` });
      expect(events[0]!.data).toMatchObject({
        organization_id: orgId,
        budget: 'key',
        key_id: keyId,
        limit_usd: 0.001,
        resets_at: null,
      });
      expect(JSON.stringify(receiver.received)).not.toContain(key);
    });
  });
});
