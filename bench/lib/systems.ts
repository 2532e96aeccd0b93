// Starts the four systems under test, each as its own process listening on 127.0.0.1 (Portkey binds 0.0.0.0,
// which is why run.sh puts the whole benchmark in a private network namespace), with logs sent to files.
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { benchKitFile } from './bench-packages.js';
import type { SystemName } from './plan.js';
import { freePort, waitForPort, type ProcessGroup } from './processes.js';
import { GATEWAY_MODEL, MOCKED_PROVIDERS, UPSTREAM_MODEL } from './requests.js';
import { SERVE_NODE_OPTIONS } from '../../src/cli/serve-node-options.js';

export interface BenchPaths {
  repoRoot: string;
  /** The dist/ snapshot the run executes (so a concurrent `make build` cannot pull files away mid-run). */
  distDir: string;
  runDir: string;
}

export interface RunningSystem {
  name: SystemName;
  child: ChildProcess;
  pid: number;
  /** Full chat-completions endpoint. */
  url: string;
  headers: Record<string, string>;
  model: string;
  logFile: string;
}

function baseEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production' };
}

async function launch(
  group: ProcessGroup,
  name: SystemName,
  paths: BenchPaths,
  args: string[],
  port: number,
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; logFile: string }> {
  const logFile = path.join(paths.runDir, `${name}.log`);
  const child = group.start(name, process.execPath, args, { env, cwd: paths.repoRoot, logFile });
  await waitForPort(port, child, name);
  return { child, logFile };
}

export async function startMock(
  group: ProcessGroup,
  paths: BenchPaths,
  port?: number,
): Promise<RunningSystem & { baseUrl: string }> {
  port ??= await freePort();
  const { child, logFile } = await launch(
    group,
    'mock',
    paths,
    [path.join(paths.distDir, 'bench/mock-upstream.js'), String(port)],
    port,
    baseEnv(),
  );
  const baseUrl = `http://127.0.0.1:${port}/v1`;
  return {
    name: 'mock',
    child,
    pid: child.pid!,
    url: `${baseUrl}/chat/completions`,
    headers: { authorization: 'Bearer bench' },
    model: UPSTREAM_MODEL,
    logFile,
    baseUrl,
  };
}

export async function startPassthrough(
  group: ProcessGroup,
  paths: BenchPaths,
  upstreamBaseUrl: string,
): Promise<RunningSystem> {
  const port = await freePort();
  const env = { ...baseEnv(), UPSTREAM_BASE_URL: upstreamBaseUrl };
  const { child, logFile } = await launch(
    group,
    'passthrough',
    paths,
    [path.join(paths.distDir, 'bench/passthrough.js'), String(port)],
    port,
    env,
  );
  return {
    name: 'passthrough',
    child,
    pid: child.pid!,
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    headers: { authorization: 'Bearer bench' },
    model: UPSTREAM_MODEL,
    logFile,
  };
}

/**
 * The gateway's environment: production mode, info logging, real PostgreSQL, the bench catalog (the test catalog's
 * model plus one with three endpoints; every provider pointed at the mock), limits off.
 */
export function gatewayEnv(
  paths: BenchPaths,
  databaseUrl: string,
  upstreamBaseUrl: string,
  port = 0,
): NodeJS.ProcessEnv {
  return {
    ...baseEnv(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    MODELGATE_CATALOG: path.join(paths.repoRoot, 'bench/fixtures/bench-catalog.json'),
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: upstreamBaseUrl,
    ...Object.fromEntries(
      MOCKED_PROVIDERS.flatMap((p) => [
        [`${p.toUpperCase()}_API_KEY`, 'sk-bench'],
        [`${p.toUpperCase()}_BASE_URL`, upstreamBaseUrl],
      ]),
    ),
    // One user drives thousands of requests a second here: per-key limits would measure the limiter instead.
    MODELGATE_RATE_LIMIT_RPM: '0',
    MODELGATE_RATE_LIMIT_TPM: '0',
  };
}

/**
 * Migrates the scratch database and creates a user with a key and plenty of credits, through the real CLI. (Every
 * command brings the schema up to date before it runs, as `modelgate migrate` does: `users create` migrates.)
 */
export async function provisionGateway(paths: BenchPaths, env: NodeJS.ProcessEnv): Promise<string> {
  const cli = path.join(paths.distDir, 'src/cli.js');
  const run = async (args: string[]) =>
    (await promisify(execFile)(process.execPath, [cli, ...args], { env, encoding: 'utf8' })).stdout;
  await run(['users', 'create', '--email', 'bench@modelgate.test']);
  const created = JSON.parse(
    (await run(['keys', 'create', '--email', 'bench@modelgate.test', '--name', 'bench', '--json'])).trim(),
  ) as { key: string };
  await run(['credits', 'add', '--email', 'bench@modelgate.test', '--usd', '1000000', '--note', 'benchmark']);
  return created.key;
}

export async function startModelgate(
  group: ProcessGroup,
  paths: BenchPaths,
  env: NodeJS.ProcessEnv,
  apiKey: string,
  nodeArgs: string[] = [],
): Promise<RunningSystem> {
  const port = await freePort();
  // The node options of every production start (src/cli/serve-node-options.ts): RSS depends on them.
  const args = [...SERVE_NODE_OPTIONS, ...nodeArgs, path.join(paths.distDir, 'bench/gateway-entry.js')];
  const { child, logFile } = await launch(group, 'modelgate', paths, args, port, { ...env, PORT: String(port) });
  return {
    name: 'modelgate',
    child,
    pid: child.pid!,
    url: `http://127.0.0.1:${port}/api/v1/chat/completions`,
    headers: { authorization: `Bearer ${apiKey}` },
    model: GATEWAY_MODEL,
    logFile,
  };
}

export async function startPortkey(
  group: ProcessGroup,
  paths: BenchPaths,
  upstreamBaseUrl: string,
): Promise<RunningSystem> {
  const port = await freePort();
  const script = benchKitFile(paths.repoRoot, '@portkey-ai/gateway', 'build/start-server.js');
  const { child, logFile } = await launch(
    group,
    'portkey',
    paths,
    [script, `--port=${port}`, '--headless'],
    port,
    baseEnv(),
  );
  return {
    name: 'portkey',
    child,
    pid: child.pid!,
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    headers: {
      authorization: 'Bearer bench',
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': upstreamBaseUrl,
    },
    model: UPSTREAM_MODEL,
    logFile,
  };
}
