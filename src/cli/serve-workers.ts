// `modelgate serve --workers N`: a node:cluster primary that starts N gateway workers sharing the port, restarts one
// that dies, aggregates their metrics, and on SIGTERM/SIGINT has every worker shut down as a single process does
// (stop accepting, finish or cut in-flight requests within the grace period, write every settlement), then exits.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Config } from '../config.js';
import { createProcessLogger } from '../logger.js';
import { serveClusterMetrics } from '../observability/cluster-metrics.js';
import { UsageError } from './command.js';

export const MAX_WORKERS = 256;

/** `--workers` → a count: a whole number from 1, or `auto` (one per core). Default 1. */
export function parseWorkers(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1;
  const value = raw.trim().toLowerCase();
  if (value === 'auto') return availableParallelism();
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_WORKERS) {
    throw new UsageError(`--workers must be a whole number from 1 to ${MAX_WORKERS}, or "auto", got "${raw}"`);
  }
  return Number(value);
}

/** Several workers are several gateway processes: they need what several instances need. */
export function checkWorkersConfig(config: Config, workers: number): void {
  if (workers <= 1) return;
  if (!config.databaseUrl) {
    throw new UsageError(
      `serve --workers ${workers} needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process and cannot be shared by workers`,
    );
  }
  if (!config.redisUrl) {
    throw new UsageError(
      `serve --workers ${workers} needs MODELGATE_REDIS_URL: without Redis every worker would keep its own rate limits and free allowances, giving each key ${workers} times its limits`,
    );
  }
}

export async function runClusterPrimary(config: Config, workers: number): Promise<number> {
  const log = createProcessLogger(config.logLevel);
  const { logger } = log;
  if (config.metricsToken) serveClusterMetrics();
  const listening = new Set<number>();
  let stopping = false;
  let failedStart = false;
  const fork = (): Worker => cluster.fork();
  let done!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (done = resolve));

  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    if (listening.size === workers) logger.info({ workers, pid: process.pid }, 'modelgate cluster listening');
  });
  cluster.on('exit', (worker, code, signal) => {
    const wasListening = listening.delete(worker.id);
    if (stopping || failedStart) {
      if (Object.keys(cluster.workers ?? {}).length === 0) done(failedStart ? 1 : 0);
      return;
    }
    if (!wasListening) {
      // A worker that cannot start (port taken, database down) would fail again: stop everything instead of looping.
      failedStart = true;
      logger.error({ worker: worker.id, code, signal }, 'a worker failed to start: stopping the cluster');
      for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
      if (Object.keys(cluster.workers ?? {}).length === 0) done(1);
      return;
    }
    logger.error({ worker: worker.id, code, signal }, 'worker exited: starting another');
    fork();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info(
      { signal, workers: Object.keys(cluster.workers ?? {}).length },
      'shutting down the cluster: draining every worker',
    );
    // Each worker runs the single-process shutdown on SIGTERM; the primary only waits for all of them.
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) done(0);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < workers; i++) fork();
  try {
    const code = await finished;
    logger.info({ code }, code === 0 ? 'cluster stopped' : 'cluster failed');
    return code;
  } finally {
    await log.flush();
  }
}
