// The mid-stream error path, when the deployment offers a trigger: a user message (its test upstream's trigger
// phrase, say) that makes generation fail after the stream began. The answer must be a 200 event stream whose last
// chunk has `finish_reason: "error"` with `error.code` and `error.message`, followed by `data: [DONE]`. Without a
// trigger the path cannot be reached from outside: skipped.
import { createSseParser } from '../providers/sse/parse-sse.js';
import type { Operation } from './openapi-document.js';
import type { Sender } from './http-exchange.js';
import { checkExchange, type CheckContext } from './response-checks.js';
import { buildRequest, type Credential } from './request-spec.js';
import { ConformanceFailure, toCounterexample } from './counterexample.js';
import type { CheckResult } from './report.js';

export const MID_STREAM_ERROR_TARGET = 'POST /chat/completions (createChatCompletion) [mid-stream error trigger]';

export async function checkMidStreamError(
  ctx: CheckContext,
  op: Operation,
  probe: { sender: Sender; request: { main: Credential; model: string; prompt: string }; secrets: Iterable<string> },
): Promise<CheckResult> {
  const { sender, request, secrets } = probe;
  const target = MID_STREAM_ERROR_TARGET;
  const body = { model: request.model, messages: [{ role: 'user', content: request.prompt }], stream: true };
  const ex = await sender.send(
    buildRequest(
      op,
      { params: {}, body: JSON.stringify(body), contentType: 'application/json', accept: 'text/event-stream' },
      { credential: request.main, description: 'streamed request with the mid-stream error trigger' },
    ),
  );
  // Only the error chunk's own rules count here: the framing and schema of streams are the other checks' business,
  // and they see streams of valid requests anyway.
  const own = checkExchange(ctx, op, ex).find((f) => f.check === 'mid_stream_error');
  const missing = own ? undefined : noErrorChunk(ex.status, ex.headers['content-type'], ex.body);
  if (!own && !missing) return { check: 'mid_stream_error', target, outcome: 'passed', runs: 1 };
  const failure = new ConformanceFailure(ex, [{ check: 'mid_stream_error', message: own ? own.message : missing! }]);
  return {
    check: 'mid_stream_error',
    target,
    outcome: 'failed',
    runs: 1,
    counterexample: toCounterexample(failure, 'mid_stream_error', sender.baseUrl, secrets),
  };
}

function noErrorChunk(status: number | undefined, contentType: string | undefined, body: string): string | undefined {
  if (status !== 200 || !(contentType ?? '').startsWith('text/event-stream'))
    return `the trigger was answered ${status} ${contentType ?? ''}, expected a 200 event stream that fails mid-way`;
  const parser = createSseParser();
  const failed = [...parser.push(body), ...parser.end()].some(
    (e) => e.data !== '[DONE]' && /"finish_reason"\s*:\s*"error"/.test(e.data),
  );
  return failed ? undefined : 'the stream carries no chunk with finish_reason "error": is the trigger right?';
}
