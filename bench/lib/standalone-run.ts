// The frame of a benchmark section run alone (`make bench-scale`, `make bench-lanes`): a scratch PostgreSQL database, the
// mock upstream, a gateway environment with a provisioned key and the load generator; everything stopped and the
// database dropped at the end, whatever happened.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LoadGenerator } from './load.js';
import { ProcessGroup } from './processes.js';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { gatewayEnv, provisionGateway, startMock, type BenchPaths } from './systems.js';

export interface StandaloneRun {
  group: ProcessGroup;
  load: LoadGenerator;
  paths: BenchPaths;
  database: ScratchDatabase;
  /** The gateway's environment (the bench catalog, every provider on the mock) and a key with credits. */
  env: NodeJS.ProcessEnv;
  apiKey: string;
  mockBaseUrl: string;
  ownPids: () => number[];
  log: (line: string) => void;
}

/** Runs `body` in a fresh frame under bench/.run/<name>; returns what it returns. */
export async function standaloneRun<T>(name: string, body: (run: StandaloneRun) => Promise<T>): Promise<T> {
  const repoRoot = process.env.BENCH_REPO_ROOT ?? process.cwd();
  const runDir = path.join(repoRoot, 'bench/.run', name);
  mkdirSync(runDir, { recursive: true });
  const paths: BenchPaths = { repoRoot, distDir: path.join(repoRoot, 'dist'), runDir };
  const group = new ProcessGroup();
  const load = new LoadGenerator(group, paths.distDir, path.join(runDir, 'load-generator.log'));
  const database = await createScratchDatabase(process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql');
  const log = (line: string) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`);
  try {
    const mock = await startMock(group, paths);
    const env = gatewayEnv(paths, database.url, mock.baseUrl);
    const apiKey = await provisionGateway(paths, env);
    return await body({
      group,
      load,
      paths,
      database,
      env,
      apiKey,
      mockBaseUrl: mock.baseUrl,
      ownPids: () => [process.pid, ...group.pids()],
      log,
    });
  } finally {
    await load.close();
    await group.stopAll();
    await database.drop();
  }
}
