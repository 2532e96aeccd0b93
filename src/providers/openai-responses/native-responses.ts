// OpenAI's Responses API (POST {base}/responses) as a back door, for the Responses door's native lane: the client's
// request goes to OpenAI as it came, with the model spliced to OpenAI's name, the gateway's routing fields removed
// and `store: false` forced (the state is the gateway's: stored responses keep the turn, and a request continuing one
// comes here expanded; a reasoning model is asked for its encrypted reasoning then, which a later turn sends back),
// and a `service_tier` the catalog does not price for the model left out (native/price-options.ts), and so is a
// hosted tool the gateway cannot bill (native-tools.ts: image generation, a hosted shell, an unknown type).
// prompt_cache_key, prompt_cache_retention, safety_identifier, text.verbosity, reasoning.summary, include, custom
// (freeform) tools, namespaces, the other hosted tools, additional_tools and every input item with its ids reach OpenAI
// as the client wrote them. The answer is read by native-responses-answer.ts.
import type { NativeProtocol, NativeRequestInput, NativeUpstreamRequest } from '../native/native-protocol.js';
import { operatorHeaders } from '../native/native-protocol.js';
import { spliceTopLevel } from '../native/top-level-members.js';
import { createNativeResponsesReader, readResponsesJson } from './native-responses-answer.js';
import { unpricedOptions } from '../native/price-options.js';
import { responsesToolEdits } from './native-tools.js';
import { OPENAI_REQUEST_OPTIONS } from '../../core/served-options.js';
import { isGatewayReasoningItem } from '../../core/gateway-reasoning.js';

/** `${base}/responses`, the Responses API beside chat completions under OpenAI's /v1 base. */
export function responsesUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/responses`;
}

const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

function buildRequest({ wire, provider, model, stream, keepsAnswer }: NativeRequestInput): NativeUpstreamRequest {
  const headers = operatorHeaders(provider);
  const beta = wire.clientHeaders['openai-beta'];
  if (beta) headers['openai-beta'] = beta;
  headers['content-type'] = 'application/json';
  headers.accept = stream ? 'text/event-stream' : 'application/json';
  if (provider.apiKey) headers.authorization = `Bearer ${provider.apiKey}`;
  const remove = [...wire.gatewayFields];
  // The door's promise (spec): reasoning options are ignored by models without reasoning, which OpenAI would refuse.
  if (!model.supportsReasoning) remove.push('reasoning');
  const warnings: string[] = [];
  const set: Record<string, string> = {};
  const include = Array.isArray(wire.body.include) ? wire.body.include : [];
  // OpenAI keeps nothing with store false: the reasoning a later turn needs back comes with the answer instead.
  if (keepsAnswer && model.supportsReasoning && !include.includes(ENCRYPTED_REASONING))
    set.include = JSON.stringify([...include, ENCRYPTED_REASONING]);
  // Reasoning another provider did (a chain that moved here from Claude or Gemini): OpenAI cannot read it, as the
  // translated lane leaves out reasoning of a foreign vendor.
  const input = wire.body.input;
  if (Array.isArray(input) && input.some(isGatewayReasoningItem))
    set.input = JSON.stringify(input.filter((item) => !isGatewayReasoningItem(item)));
  // A service tier the gateway does not price (scale, ultrafast, or priority where the catalog has no price for it).
  const options = unpricedOptions(wire.body, OPENAI_REQUEST_OPTIONS, model);
  remove.push(...options.remove);
  warnings.push(...options.warnings);
  // A hosted tool the gateway cannot bill (image generation, a hosted shell, a type it does not know) is left out.
  const tools = responsesToolEdits(wire.body);
  warnings.push(...tools.warnings);
  const body = spliceTopLevel(wire.raw, {
    remove,
    set: { ...set, ...tools.set, model: JSON.stringify(model.upstreamModel), store: 'false' },
  });
  return { request: { method: 'POST', url: responsesUrl(provider.baseUrl), headers, body }, warnings };
}

export const nativeResponses: NativeProtocol = {
  buildRequest,
  readJson: readResponsesJson,
  createStreamReader: createNativeResponsesReader,
  // A reasoning model's reasoning tokens are billed whether or not a summary is streamed.
  hidesReasoning: (model) => model.supportsReasoning,
};
