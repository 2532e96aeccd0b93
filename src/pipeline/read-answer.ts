// The attempt's failure mapping for a whole answer, on either lane: a body that cannot be read fails as its reader
// says; one the lane cannot take is the vendor's error in a 200 (UpstreamPayloadError), else a 502. The attempt's
// span (tracing on) ends here when it failed.
import { GatewayError } from '../core/gateway-error.js';
import { endUpstreamAttempt } from '../observability/upstream-attempt.js';
import type { UpstreamResponse } from '../providers/http-client.js';
import { UpstreamPayloadError } from '../providers/upstream-payload-error.js';
import { UpstreamHttpError } from './call-upstream.js';

/** The attempt whose answer is read: the provider that answers, and whether its client left. */
export interface AnswerAttempt {
  provider: string;
  signal: { readonly aborted: boolean };
}

/** How a lane reads a whole answer: its body, then what the lane makes of it. */
export interface AnswerReading<B, A> {
  read(provider: string): Promise<B>;
  take(body: B): A;
}

/** A whole upstream answer: read, then made sense of. */
export async function readAnswer<B, A>(
  upstream: UpstreamResponse,
  attempt: AnswerAttempt,
  { read, take }: AnswerReading<B, A>,
): Promise<A> {
  const { provider } = attempt;
  let body: B;
  try {
    body = await read(provider);
  } catch (err) {
    endUpstreamAttempt(upstream, { aborted: attempt.signal.aborted, error: err });
    throw err;
  }
  try {
    return take(body);
  } catch (err) {
    const failure =
      err instanceof UpstreamPayloadError
        ? new UpstreamHttpError(err.info, provider, 200)
        : new GatewayError(502, `Provider ${provider} returned an unexpected response`, {
            provider,
            reason: 'upstream_malformed',
          });
    endUpstreamAttempt(upstream, { error: failure });
    throw failure;
  }
}
