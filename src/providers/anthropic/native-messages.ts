// The native lane for the Messages door to Anthropic: the client's request goes to POST {base}/v1/messages as it
// came (the model spliced to Anthropic's name, the gateway's routing fields removed), with the client's `anthropic-*`
// protocol headers (version, betas) and the operator's key; every block type, tool type the gateway can bill (server
// tools included; native-tools.ts leaves out the others, with a warning), cache_control (ttl, scope), thinking mode,
// output_config and context_management reaches Anthropic unchanged, and `speed` and `inference_geo` where the catalog
// prices the value asked for (else left out, with a warning). The
// answer comes back as Anthropic sent it; only `model` reads the gateway's id, as on the translated lane (ids stay
// Anthropic's). Usage is metered from Anthropic's own counts, the cache writes' 5m/1h split included, and the code
// execution container the answer ran in (code-execution.ts).
import type {
  NativeJsonAnswer,
  NativeProtocol,
  NativeRequestInput,
  NativeUpstreamRequest,
} from '../native/native-protocol.js';
import { operatorHeaders } from '../native/native-protocol.js';
import { spliceTopLevel } from '../native/top-level-members.js';
import { isRecord, readArray, readString } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { ANTHROPIC_VERSION, messagesUrl } from './convert-request.js';
import { normalizeUsage, readUsage } from './convert-usage.js';
import { mapFinishReason } from './map-finish-reason.js';
import { mapError } from './map-error.js';
import { createNativeMessagesReader } from './native-stream.js';
import { codeExecutionUses, messageRanInContainer } from './code-execution.js';
import { unpricedOptions } from '../native/price-options.js';
import { messagesToolEdits } from './native-tools.js';
import { ANTHROPIC_REQUEST_OPTIONS } from '../../core/served-options.js';

function buildRequest({ wire, provider, model, stream }: NativeRequestInput): NativeUpstreamRequest {
  const headers = operatorHeaders(provider);
  // The client's protocol headers after the operator's, the transport and auth headers after both: neither can
  // replace the credential. The door passes only `anthropic-*` names (client-headers.ts), never x-api-key.
  for (const [name, value] of Object.entries(wire.clientHeaders)) headers[name] = value;
  headers['anthropic-version'] = wire.clientHeaders['anthropic-version'] ?? ANTHROPIC_VERSION;
  headers['content-type'] = 'application/json';
  headers.accept = stream ? 'text/event-stream' : 'application/json';
  if (provider.apiKey) headers['x-api-key'] = provider.apiKey;
  // Fast mode or a data residency the catalog does not price for the model is left out (native/price-options.ts), and
  // so are a tool and fallbacks the gateway cannot bill (native-tools.ts).
  const options = unpricedOptions(wire.body, ANTHROPIC_REQUEST_OPTIONS, model);
  const tools = messagesToolEdits(wire.body);
  const body = spliceTopLevel(wire.raw, {
    remove: [...wire.gatewayFields, ...options.remove, ...tools.remove],
    set: { ...tools.set, model: JSON.stringify(model.upstreamModel) },
  });
  return {
    request: { method: 'POST', url: messagesUrl(provider.baseUrl), headers, body },
    warnings: [...options.warnings, ...tools.warnings],
  };
}

/** Characters of generated content in Message content blocks (text, thinking, tool input). */
export function blockChars(blocks: unknown): number {
  let chars = 0;
  for (const block of readArray(blocks) ?? []) {
    if (!isRecord(block)) continue;
    chars +=
      (readString(block.text)?.length ?? 0) +
      (readString(block.thinking)?.length ?? 0) +
      (readString(block.name)?.length ?? 0);
    if (block.input !== undefined && block.type === 'tool_use') chars += JSON.stringify(block.input).length;
  }
  return chars;
}

function readJson(bytes: Buffer, ctx: Parameters<NativeProtocol['readJson']>[1]): NativeJsonAnswer {
  const body = UpstreamPayloadError.parseJson(bytes.toString('utf8'));
  if (!isRecord(body)) throw UpstreamPayloadError.malformed('the message is not a JSON object');
  if (body.type === 'error') {
    const info = mapError({ status: 502, body }, { providerId: ctx.provider.id });
    throw new UpstreamPayloadError({ ...info, message: ctx.redact(info.message) });
  }
  const content = readArray(body.content);
  const hasToolCalls = content?.some((block) => isRecord(block) && block.type === 'tool_use') ?? false;
  const stopSequence = readString(body.stop_sequence);
  const usage = normalizeUsage(readUsage(body.usage));
  const toolUses = codeExecutionUses(messageRanInContainer(body), ctx.toolBilling);
  if (usage && toolUses) usage.toolUses = toolUses;
  return {
    reading: {
      upstreamId: readString(body.id),
      usage,
      ...(toolUses ? { toolUses } : {}),
      finish: mapFinishReason(body.stop_reason, hasToolCalls),
      ...(stopSequence !== undefined && body.stop_reason === 'stop_sequence' ? { stopSequence } : {}),
      generatedChars: blockChars(content),
    },
    render: () => spliceTopLevel(bytes, { set: { model: JSON.stringify(ctx.model) } }),
  };
}

export const nativeMessages: NativeProtocol = {
  buildRequest,
  readJson,
  createStreamReader: createNativeMessagesReader,
  // Thinking streams as thinking_delta: a client that leaves has seen every token generated so far.
  hidesReasoning: () => false,
};
