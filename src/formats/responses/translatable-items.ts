// The translated lane carries the content part types the Responses door models; the door's schema accepts any other
// type too (`input_file`, `input_audio`, types OpenAI adds later), which only an OpenAI model can take, as it is, on
// the native lane. Before a request is translated for another provider, such a part is refused by name (unknown item
// types are refused by convert-input.ts): a clear 400 rather than a part silently turned into empty text.
import { GatewayError } from '../../core/gateway-error.js';
import type { ResponseRequest } from './wire-types.js';

const PARTS = new Set(['input_text', 'input_image', 'output_text', 'refusal']);

function checkParts(content: unknown, field: string, model: string): void {
  if (!Array.isArray(content)) return;
  content.forEach((part: { type?: unknown }, k) => {
    const type = String(part?.type);
    if (!PARTS.has(type)) {
      throw new GatewayError(400, `Invalid request: ${field}[${k}] has type "${type}", which only OpenAI models take (passed to them as it is); ${model} is served by another provider`, {
        field: `${field}[${k}].type`,
        reason: 'content_type_not_supported',
        content_type: type,
      });
    }
  });
}

/** Throws a 400 naming the first part the translated lane cannot carry; returns the request otherwise. */
export function translatableInput(body: ResponseRequest): ResponseRequest {
  if (typeof body.input === 'string') return body;
  body.input.forEach((item, i) => {
    const record = item as { content?: unknown; output?: unknown };
    checkParts(record.content, `input[${i}].content`, body.model);
    checkParts(record.output, `input[${i}].output`, body.model);
  });
  return body;
}
