// The gateway the clients talk to: started in this process on 127.0.0.1 with the shipped catalog, on embedded
// PGlite in a temp folder, every provider of the matrix pointed at the recorded upstream, and one account that has
// credits and a pass (so openai/, anthropic/, google/, deepseek/ and pass/ models all answer). Log lines are kept
// so a failed cell can say what the gateway answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { issueApiKey } from '../../src/auth/issue-credentials.js';
import { newId } from '../../src/auth/secrets.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { grantCredits } from '../../src/repositories/credits.js';
import { findOrCreateUserByEmail } from '../../src/repositories/users.js';
import { startGateway, type RunningGateway } from '../../src/server.js';
import { grantPass } from '../../src/services/pass.js';
import { seedMigratedDataFolder } from '../helpers/pglite-snapshots.js';
import type { RecordedUpstream } from './upstream/recorded-upstream.js';

export interface GatewayUnderTest {
  /** The gateway's origin, e.g. http://127.0.0.1:41234 (clients add /api or /api/v1 as their docs say). */
  url: string;
  /** A Modelgate API key of the account with credits and a pass. */
  key: string;
  logs: string[];
  gateway: RunningGateway;
  /** Another key of the same account, for one cell: what it did is told apart from other cells' by its id. */
  cellKey(name: string): Promise<{ id: string; secret: string }>;
  /** How many generation records a key made. */
  generationsOf(keyId: string): Promise<number>;
  close(): Promise<void>;
}

/** Provider variables pointing each family at its prefix of the recorded upstream, with keys the upstream ignores. */
export function upstreamEnv(upstream: RecordedUpstream): Record<string, string> {
  return {
    OPENAI_API_KEY: 'sk-compat-openai',
    OPENAI_BASE_URL: upstream.base('openai', '/v1'),
    ANTHROPIC_API_KEY: 'sk-ant-compat',
    ANTHROPIC_BASE_URL: upstream.base('anthropic'),
    GEMINI_API_KEY: 'AIzaCompatUpstream',
    GOOGLE_BASE_URL: upstream.base('google', '/v1beta'),
    DEEPSEEK_API_KEY: 'sk-compat-deepseek',
    DEEPSEEK_BASE_URL: upstream.base('deepseek'),
    PASS_API_KEY: 'sk-compat-pass',
    PASS_BASE_URL: upstream.base('pass', '/v1'),
  };
}

export async function startGatewayUnderTest(upstream: RecordedUpstream): Promise<GatewayUnderTest> {
  const dataDir = mkdtempSync(join(tmpdir(), 'modelgate-compat-db-'));
  // Seeded as a first start leaves it (initdb, migrations): the clients are what the matrix is about.
  await seedMigratedDataFolder(dataDir);
  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    MODELGATE_DATA_DIR: dataDir,
    // Several cells run at once from one account: the matrix measures compatibility, not the rate limits.
    MODELGATE_RATE_LIMIT_RPM: '0',
    MODELGATE_RATE_LIMIT_TPM: '0',
    // Validators compile on each operation's first request: a cell calls a few operations, not all of them.
    MODELGATE_PRECOMPILE_VALIDATORS: 'false',
    ...upstreamEnv(upstream),
  };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const gateway = await startGateway(loadConfig(env), { env, logger: createLogger('info', sink) });
  try {
    const now = new Date();
    const user = await findOrCreateUserByEmail(gateway.db, 'compat@example.com', () => newId('usr_'));
    await grantCredits(gateway.db, {
      userId: user.id,
      amountNanos: 1000n * 1_000_000_000n,
      note: 'compatibility matrix',
    });
    await grantPass(gateway.db, user.id, 1, now);
    const { secret } = await issueApiKey(gateway.db, {
      organizationId: user.id,
      memberUserId: user.id,
      name: 'compat',
    });
    return {
      url: gateway.url,
      key: secret,
      logs,
      gateway,
      async cellKey(name) {
        const issued = await issueApiKey(gateway.db, { organizationId: user.id, memberUserId: user.id, name });
        return { id: issued.row.id, secret: issued.secret };
      },
      async generationsOf(keyId) {
        await gateway.parts.settlements.drain();
        const rows = await gateway.db.selectFrom('generations').select('id').where('api_key_id', '=', keyId).execute();
        return rows.length;
      },
      async close() {
        await gateway.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
