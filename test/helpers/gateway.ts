// Starts the real gateway in-process on 127.0.0.1:0 over a test database, with its log lines captured.
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import {
  startGateway,
  type GatewayOverrides,
  type GatewayParts,
  type RunningGateway,
  type StartOptions,
} from '../../src/server.js';
import type { Db } from '../../src/db/database.js';
import { issueApiKey, issueAccountToken } from '../../src/auth/issue-credentials.js';
import { findOrCreateUserByEmail } from '../../src/repositories/users.js';
import { getCreditAccount, grantCredits } from '../../src/repositories/credits.js';
import { newId } from '../../src/auth/secrets.js';
import { createAdminKey } from '../../src/services/admin-keys.js';
import { openTestDatabase, type Backend, type OpenTestDatabase } from './databases.js';
import { MockUpstream } from './mock-upstream.js';

export interface TestGateway {
  url: string;
  /** The gateway's database (the test's own). */
  db: Db;
  /** The running gateway's parts (server.ts); replacing one changes what the next requests use. */
  parts: GatewayParts;
  gateway: RunningGateway;
  /** Every log line written so far, raw JSON text. */
  logs: string[];
  fetch(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** One call of the API under /api/v1, a JSON body sent when given; the answer's JSON (undefined if it is not JSON). */
  api(call: ApiCall): Promise<ApiAnswer>;
  /** Waits until every settlement queued so far is committed (failed and abandoned requests settle after their response). */
  settled(): Promise<void>;
  createUser(email?: string): Promise<{ userId: string; email: string; key: string; keyId: string }>;
  createToken(userId: string): Promise<string>;
  grant(userId: string, usd: number): Promise<void>;
  /** Credits still reserved once this gateway gave its unused leases back: what requests in flight hold. */
  reservedNanos(userId: string): Promise<bigint>;
  close(): Promise<void>;
}

export interface ApiCall {
  method: string;
  /** Below /api/v1. */
  path: string;
  key: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ApiAnswer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/**
 * A successful answer ends only once its settlement is committed, but a failed or abandoned one is settled after its
 * response. So that a test may read the database right after reading any response body, reading the body (json/text)
 * also waits for the settlements queued by then.
 */
function settlesOnRead(res: Response, drain: () => Promise<void>): Response {
  for (const method of ['json', 'text', 'arrayBuffer'] as const) {
    const read = res[method].bind(res) as () => Promise<unknown>;
    Object.defineProperty(res, method, {
      value: async () => {
        const body = await read();
        await drain();
        return body;
      },
    });
  }
  return res;
}

export async function startTestGateway(
  options: {
    backend?: Backend;
    env?: Record<string, string>;
    overrides?: GatewayOverrides;
    database?: OpenTestDatabase;
    bundles?: StartOptions['bundles'];
  } = {},
): Promise<TestGateway> {
  const ownDatabase = !options.database;
  const database = options.database ?? (await openTestDatabase(options.backend ?? 'pglite', { migrated: true }));
  // Validators compile on each operation's first request: a test calls a few operations, not all of them.
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'debug',
    MODELGATE_PRECOMPILE_VALIDATORS: 'false',
    ...options.env,
  };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const gateway = await startGateway(loadConfig(env), {
    env,
    logger: createLogger('debug', sink),
    // With the URL or instance the gateway hears credential changes made through other connections, as in production.
    database: { db: database.db, url: database.url, pglite: database.pglite },
    overrides: options.overrides,
    bundles: options.bundles,
  });
  let counter = 0;
  const gatewayFetch: TestGateway['fetch'] = (path, init = {}) => {
    const { key, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
    return fetch(`${gateway.url}${path}`, { ...rest, headers }).then((res) =>
      settlesOnRead(res, () => gateway.parts.settlements.drain()),
    );
  };
  return {
    url: gateway.url,
    db: gateway.db,
    parts: gateway.parts,
    gateway,
    logs,
    fetch: gatewayFetch,
    async api({ method, path, key, body, headers = {} }) {
      const res = await gatewayFetch(`/api/v1${path}`, {
        method,
        key,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: res.status, body: json, text, headers: res.headers };
    },
    settled() {
      return gateway.parts.settlements.drain();
    },
    async createUser(email) {
      const address = email ?? `user${++counter}-${newId('')}@example.com`;
      const user = await findOrCreateUserByEmail(database.db, address, () => newId('usr_'));
      const { row, secret } = await issueApiKey(database.db, {
        organizationId: user.id,
        memberUserId: user.id,
        name: 'test',
      });
      return { userId: user.id, email: address, key: secret, keyId: row.id };
    },
    async createToken(userId) {
      return (await issueAccountToken(database.db, { userId })).secret;
    },
    async reservedNanos(userId) {
      await gateway.parts.settlements.drain();
      await gateway.parts.leases.releaseIdle(0);
      return (await getCreditAccount(database.db, userId)).reservedNanos;
    },
    async grant(userId, usd) {
      await grantCredits(database.db, { userId, amountNanos: BigInt(Math.round(usd * 1e9)), note: 'test' });
    },
    async close() {
      await gateway.close();
      if (ownDatabase) await database.close();
    },
  };
}

/** The usual end-to-end setup: a gateway on the test catalog in front of a mock OpenAI upstream, and an operator key. */
export async function startGatewayWithUpstream(): Promise<{
  gw: TestGateway;
  upstream: MockUpstream;
  admin: string;
  close(): Promise<void>;
}> {
  const upstream = await new MockUpstream().start();
  const gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-up',
      OPENAI_BASE_URL: `${upstream.url}/v1`,
    },
  });
  const admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
  return {
    gw,
    upstream,
    admin,
    async close() {
      await gw.close();
      await upstream.close();
    },
  };
}
