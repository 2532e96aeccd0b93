// The native lane for the Gemini door to Google: the client's GenerateContentRequest goes to
// {base}/models/{upstream model}:generateContent (or :streamGenerateContent?alt=sse) as it came, its bytes untouched
// (the model is in the path, not the body): thought signatures, functionCall/functionResponse, inlineData/fileData,
// systemInstruction, toolConfig, thinkingConfig, cachedContent, safetySettings, Google's own tools the gateway can
// bill (native-tools.ts leaves out the others, with a warning) and any field added later reach Google unchanged, with
// the operator's key. The answer comes back as Google sent it; only `modelVersion`
// and `responseId` read the gateway's model id and generation id, as on the translated lane. Usage is metered from
// Google's usageMetadata (thinking and cached tokens included) and its grounding (Google Search requests,
// grounding.ts).
import type {
  NativeJsonAnswer,
  NativeProtocol,
  NativeRequestInput,
  NativeUpstreamRequest,
} from '../native/native-protocol.js';
import { operatorHeaders } from '../native/native-protocol.js';
import { spliceTopLevel } from '../native/top-level-members.js';
import { isRecord } from '../payload-readers.js';
import { UpstreamPayloadError } from '../upstream-payload-error.js';
import { generateContentUrl } from './convert-request.js';
import { mapGeminiEmbeddedError } from './map-error.js';
import { createNativeGeminiReader, newSeen, readResponse, withGatewayIdentity } from './native-stream.js';
import { geminiToolEdits } from './native-tools.js';

function buildRequest({ wire, provider, model, stream }: NativeRequestInput): NativeUpstreamRequest {
  const headers = operatorHeaders(provider);
  headers['content-type'] = 'application/json';
  // The operator's key only, set last so no configured header can replace it; the client's never goes upstream.
  if (provider.apiKey) headers['x-goog-api-key'] = provider.apiKey;
  // A tool the gateway cannot bill is left out (native-tools.ts); the bytes are untouched otherwise.
  const tools = geminiToolEdits(wire.body);
  const edited = tools.tools !== undefined || wire.gatewayFields.some((field) => field in wire.body);
  const body = edited
    ? spliceTopLevel(wire.raw, {
        remove: wire.gatewayFields,
        set: tools.tools === undefined ? {} : { tools: tools.tools },
      })
    : wire.raw;
  return {
    request: { method: 'POST', url: generateContentUrl(provider.baseUrl, model.upstreamModel, stream), headers, body },
    warnings: tools.warnings,
  };
}

function readJson(bytes: Buffer, ctx: Parameters<NativeProtocol['readJson']>[1]): NativeJsonAnswer {
  const body = UpstreamPayloadError.parseJson(bytes.toString('utf8'));
  if (!isRecord(body)) throw UpstreamPayloadError.malformed('the response is not a JSON object');
  if (isRecord(body.error)) {
    const info = mapGeminiEmbeddedError(body, ctx.provider.id);
    throw new UpstreamPayloadError({ ...info, message: ctx.redact(info.message) });
  }
  const read = readResponse(body, newSeen(), ctx.upstreamModel);
  return { reading: read.reading, render: () => withGatewayIdentity(bytes, ctx) };
}

export const nativeGemini: NativeProtocol = {
  buildRequest,
  readJson,
  createStreamReader: createNativeGeminiReader,
  // Gemini bills every thinking token and shows at most a summary of them: a client that leaves has not seen them all.
  hidesReasoning: (model) => model.supportsReasoning,
};
