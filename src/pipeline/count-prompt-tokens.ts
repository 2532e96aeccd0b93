// The prompt's token count (POST /messages/count_tokens): the serving provider's own counter where its bundle has one
// (provider-bundle.ts), else (and when that counter fails) the gateway's estimate. Free and not recorded: nothing
// is generated. The key's allow-list holds as on every model call (the counter runs on the operator's key), and the
// call counts against the key's requests per minute like any other (with no tokens: it generates none).
import type { GenerationRequest } from '../core/generation-request.js';
import type { Logger } from '../logger.js';
import type { RateReport } from '../core/rate-report.js';
import type { HttpClient } from '../providers/http-client.js';
import type { PromptTokenCounter, PromptTokenCounters } from '../providers/provider-bundle.js';
import { resolveTarget, type Target, type TargetSources } from '../routing/resolve-target.js';
import { estimatePromptTokens } from '../routing/token-estimate/estimate-tokens.js';
import type { GenerationClient } from './serve-generation.js';
import type { AdmissionParts } from './admission/admission-ask.js';
import { admit } from './admission/admit.js';

export type CountParts = TargetSources &
  AdmissionParts & { http: HttpClient; logger: Logger; tokenCounters: PromptTokenCounters };

export interface PromptTokenCount {
  inputTokens: number;
  /** The key's rate state, to send with the count (as its door's rate-limit headers). */
  rate: RateReport;
}

/** The prompt to count, as a door parsed it. */
export interface PromptToCount {
  request: GenerationRequest;
  /** The client's protocol headers, for the provider's counter (as a generation of the same protocol forwards them). */
  clientHeaders: Readonly<Record<string, string>>;
}

export async function countPromptTokens(
  parts: CountParts,
  client: Pick<GenerationClient, 'principal' | 'watchConnection'>,
  prompt: PromptToCount,
): Promise<PromptTokenCount> {
  const { request } = prompt;
  const target = resolveTarget(parts.catalog, parts.providers, parts.adapters, request.model);
  // Admitted as every model call is; it spends nothing and counts no tokens (it generates none).
  const { rate } = await admit(parts, {
    path: 'count-tokens',
    principal: client.principal,
    candidates: [target],
    estimatedTokens: 0,
    freeAllowance: false,
    spend: { kind: 'none' },
  });
  const counter = parts.tokenCounters[target.provider.kind];
  const counted = counter ? await countUpstream(parts, client, { ...prompt, target, counter }) : undefined;
  return { inputTokens: counted ?? estimatePromptTokens(request), rate };
}

async function countUpstream(
  parts: CountParts,
  client: Pick<GenerationClient, 'watchConnection'>,
  { target, counter, request, clientHeaders }: PromptToCount & { target: Target; counter: PromptTokenCounter },
): Promise<number | undefined> {
  const connection = client.watchConnection();
  try {
    const adapterCtx = { provider: target.provider, model: target.model, stream: false, clientHeaders };
    const response = await parts.http.send(counter.buildRequest(request, adapterCtx), connection.signal);
    if (response.status !== 200) {
      response.body.destroy();
      parts.logger.warn(
        { provider: target.provider.id, status: response.status },
        'count_tokens upstream failed; answering the estimate',
      );
      return undefined;
    }
    return counter.readCount(await response.body.json());
  } catch (err) {
    parts.logger.warn(
      { provider: target.provider.id, err: (err as Error)?.message },
      'count_tokens upstream failed; answering the estimate',
    );
    return undefined;
  } finally {
    connection.dispose();
  }
}
