// The response cache at c=1 (docs/response-cache.md): the same chat request answered as a miss (`X-Modelgate-Cache:
// refresh`: the gateway calls the mock and stores the answer) and as a hit (`on`: replayed from the in-process store,
// no upstream call), JSON and stream, in alternating slices so both states see the same machine.
import type { Plan } from './plan.js';
import { ProbeClient, summarizeProbe, type ProbeSample, type ProbeSummary, type ProbeTarget } from './probe.js';
import { chatBody } from './requests.js';

export type CacheState = 'miss' | 'hit';

export interface CacheProbeRecord extends ProbeSummary {
  scenario: 'json' | 'stream';
  state: CacheState;
}

const DIRECTIVE: Record<CacheState, string> = { miss: 'refresh', hit: 'on' };

export async function measureResponseCache(
  target: ProbeTarget & { model: string },
  plan: Plan['responseCache'],
): Promise<CacheProbeRecord[]> {
  const records: CacheProbeRecord[] = [];
  for (const scenario of ['json', 'stream'] as const) {
    const stream = scenario === 'stream';
    const body = chatBody(scenario, target.model);
    const clients = {
      miss: new ProbeClient({ url: target.url, headers: { ...target.headers, 'x-modelgate-cache': DIRECTIVE.miss } }),
      hit: new ProbeClient({ url: target.url, headers: { ...target.headers, 'x-modelgate-cache': DIRECTIVE.hit } }),
    };
    const samples: Record<CacheState, ProbeSample[]> = { miss: [], hit: [] };
    const failures: Record<CacheState, { count: number; first?: string }> = { miss: { count: 0 }, hit: { count: 0 } };
    try {
      for (let round = 0; round < plan.rounds; round++) {
        // The miss first in every round: it (re)stores the entry the hits then replay.
        for (const state of ['miss', 'hit'] as const) {
          const slice = await clients[state].run({
            body,
            stream,
            warmupRequests: plan.sliceWarmupRequests,
            maxRequests: plan.maxRequests,
            seconds: plan.seconds / plan.rounds,
          });
          samples[state].push(...slice.samples);
          failures[state].count += slice.failures;
          failures[state].first ??= slice.firstFailure;
        }
      }
    } finally {
      clients.miss.close();
      clients.hit.close();
    }
    for (const state of ['miss', 'hit'] as const) {
      records.push({
        scenario,
        state,
        ...summarizeProbe(samples[state], failures[state].count, failures[state].first),
      });
    }
  }
  return records;
}
