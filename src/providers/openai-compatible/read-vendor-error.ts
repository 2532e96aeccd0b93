// Pulls message/type/code out of the error bodies OpenAI-compatible vendors send. Shapes seen in the wild:
// OpenAI `{error:{message,type,param,code}}`, OpenRouter `{error:{code:429,message,metadata}}`, Mistral
// `{object:"error",message:string|{detail:[...]},type,code}`, Gemini compat `[{error:{code,message,status}}]`,
// and plain text or HTML from proxies in front of the vendor.
import { isRecord, readArray, readRecord, readString, type JsonRecord, decodeErrorBody } from '../payload-readers.js';

export interface VendorError {
  message?: string;
  type?: string;
  code?: string;
  /** A numeric HTTP-like code inside the body (OpenRouter, Gemini), when present. */
  numericCode?: number;
  param?: string;
}

const MAX_MESSAGE = 1000;

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  // Mistral's validation errors: {detail: [{msg, loc}]}
  const detail = readArray(readRecord(value)?.detail);
  if (detail) {
    const parts = detail.map((d) =>
      isRecord(d) ? `${readString(d.msg) ?? 'invalid'}${Array.isArray(d.loc) ? ` (${d.loc.join('.')})` : ''}` : '',
    );
    return parts.filter(Boolean).join('; ') || undefined;
  }
  return undefined;
}

function fromObject(obj: JsonRecord): VendorError {
  const inner = readRecord(obj.error) ?? obj;
  const out: VendorError = {};
  out.message = messageOf(inner.message) ?? readString(obj.error) ?? messageOf(obj.message) ?? readString(obj.detail);
  out.type = readString(inner.type) ?? readString(inner.status) ?? readString(obj.type);
  const code = inner.code ?? obj.code;
  if (typeof code === 'number' && Number.isInteger(code)) out.numericCode = code;
  else if (typeof code === 'string' && code !== '') out.code = code;
  out.param = readString(inner.param);
  // OpenRouter: metadata.error_type (e.g. provider_unavailable) is more telling than a numeric code.
  const errorType = readString(readRecord(inner.metadata)?.error_type);
  if (!out.code && errorType) out.code = errorType;
  return out;
}

/** Best-effort, never throws: unknown bodies yield an empty VendorError or just a message. */
export function readVendorError(body: unknown): VendorError {
  const decoded = decodeErrorBody(body);
  const first = Array.isArray(decoded) ? decoded[0] : decoded;
  if (isRecord(first)) return fromObject(first);
  if (typeof first === 'string' && first !== '') {
    // HTML error pages from load balancers carry no useful text for a client.
    return first.startsWith('<') ? {} : { message: first.slice(0, MAX_MESSAGE) };
  }
  return {};
}

/** Vendor messages may name the gateway's own account (OpenAI: "in organization org-..."); hide it. */
export function redactVendorMessage(message: string): string {
  return message
    .replace(/\borg-[A-Za-z0-9]+/g, 'org-***')
    .replace(/\b(sk|gsk|xai|sk-or-v1|sk-ant)-[A-Za-z0-9_-]{6,}/g, '$1-***')
    .slice(0, MAX_MESSAGE);
}
