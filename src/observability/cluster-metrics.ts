// Metrics across `serve --workers N`: every worker serves GET /metrics (they share the port), so the worker that
// gets the scrape asks the primary, which collects all workers' registries with prom-client's AggregatorRegistry
// (counters and histograms summed) and sends the text back. A single process renders its own registry.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, type Registry } from 'prom-client';

const ASK = 'modelgate:metrics-request';
const ANSWER = 'modelgate:metrics-response';
const ANSWER_TIMEOUT_MS = 10_000;

interface MetricsAnswer {
  type: typeof ANSWER;
  id: string;
  text?: string;
  error?: string;
}

export type RenderMetrics = () => Promise<string>;

/** How this process renders GET /metrics: its own registry, or (in a cluster worker) the whole cluster's. */
export function metricsRenderer(registry: Registry): RenderMetrics {
  if (!cluster.isWorker) return () => registry.metrics();
  // The primary's requests for this worker's registry are answered by prom-client's listener (set up by the
  // constructor) from the registries named here.
  new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
  const waiting = new Map<string, { resolve: (text: string) => void; reject: (err: Error) => void }>();
  process.on('message', (message: MetricsAnswer) => {
    if (message?.type !== ANSWER) return;
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error !== undefined) pending?.reject(new Error(message.error));
    else pending?.resolve(message.text ?? '');
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = randomUUID();
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the primary did not answer with the cluster metrics'));
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, {
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      process.send!({ type: ASK, id });
    });
}

/** In the primary: answers workers' requests for the aggregated metrics of all workers. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== ASK || message.id === undefined) return;
    const id = message.id;
    aggregator.clusterMetrics().then(
      (text) => worker.isConnected() && worker.send({ type: ANSWER, id, text } satisfies MetricsAnswer),
      (err: Error) =>
        worker.isConnected() && worker.send({ type: ANSWER, id, error: err.message } satisfies MetricsAnswer),
    );
  });
}
