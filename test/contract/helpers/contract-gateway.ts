// The in-process gateway the contract suite runs against: the real app over a test database, in front of the
// conformance mock upstream (the same one `make conformance` starts as a process), rate limits off so runs are
// deterministic, and bounded run sizes that `make conformance-long`-style runs can raise through the environment.
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { startMockUpstreamServer, type MockUpstreamServer } from '../../../src/conformance/mock-upstream-server.js';

export interface ContractGateway {
  gw: TestGateway;
  mock: MockUpstreamServer;
  /** A user with plenty of credits; `token` is its account token, which manages its keys (`managementKey`). */
  user: { userId: string; key: string; keyId: string; token: string };
  close(): Promise<void>;
}

/** Generated inputs per property; seeded so a failure replays. Raise with CONFORMANCE_RUNS / _TIME_LIMIT_MS. */
export const BOUNDS = {
  runs: Number(process.env.CONFORMANCE_RUNS ?? 25),
  seed: Number(process.env.CONFORMANCE_SEED ?? 20261121),
  timeLimitMs: Number(process.env.CONFORMANCE_TIME_LIMIT_MS ?? 3_000),
};

/** Per test: a few properties at the time limit each, plus start-up on a loaded machine. */
export const TEST_TIMEOUT_MS = Math.max(60_000, BOUNDS.timeLimitMs * 4 + 30_000);

export const SERVED_MODEL = 'openai/gpt-test';

export async function startContractGateway(): Promise<ContractGateway> {
  const mock = await startMockUpstreamServer();
  const gw = await startTestGateway({
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: 'sk-conformance-mock',
      OPENAI_BASE_URL: `${mock.url}/v1`,
      DEEPSEEK_API_KEY: 'sk-conformance-mock',
      DEEPSEEK_BASE_URL: mock.url,
      OPENROUTER_API_KEY: 'sk-conformance-mock',
      OPENROUTER_BASE_URL: `${mock.url}/api/v1`,
      MODELGATE_RATE_LIMIT_RPM: '0',
      MODELGATE_RATE_LIMIT_TPM: '0',
      LOG_LEVEL: 'warn',
    },
  });
  const created = await gw.createUser();
  await gw.grant(created.userId, 1000);
  const user = { ...created, token: await gw.createToken(created.userId) };
  return {
    gw,
    mock,
    user,
    async close() {
      await gw.close();
      await mock.close();
    },
  };
}
