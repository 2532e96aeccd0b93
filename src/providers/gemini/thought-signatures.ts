// Thought signatures are Gemini's encrypted reasoning state. They ride on response parts (a thought part,
// the last text part, the first functionCall of each step) and must come back on the same kind of part in
// the next request; Gemini 3 answers 400 when the first functionCall of a step in the current turn lacks
// one (https://ai.google.dev/gemini-api/docs/thought-signatures). The gateway carries them as reasoning records,
// which every door hands to its client and takes back:
//   signed thought part   ⇄ {text, signature, format: "google-gemini-v1", index}
//   signed text part      ⇄ {data, format: "google-gemini-v1", index}
//   signed functionCall   ⇄ {data, callId: <tool call id>, format: "google-gemini-v1", index}
import type { ReasoningBlock } from '../../core/content-blocks.js';
import type { ReasoningState } from '../../core/generation.js';

export const GEMINI_REASONING_FORMAT = 'google-gemini-v1';

/**
 * Documented stand-in for a signature the client did not keep (most chat-completions clients drop
 * reasoning records); it tells Gemini 3 to skip validation instead of failing the whole request.
 */
export const SKIP_SIGNATURE_VALIDATION = 'skip_thought_signature_validator';

export function thoughtRecord(text: string, signature: string, index: number): ReasoningState {
  return { text, signature, format: GEMINI_REASONING_FORMAT, index };
}

export function signatureRecord(signature: string, index: number, toolCallId?: string): ReasoningState {
  const record: ReasoningState = { data: signature, format: GEMINI_REASONING_FORMAT, index };
  if (toolCallId !== undefined) record.callId = toolCallId;
  return record;
}

/** Where the signatures of one earlier assistant message go when it is sent back. */
export interface SignaturePlan {
  /** Signed thought parts, in their original order; they open the model turn. */
  thoughts: Array<{ text: string; thought: true; thoughtSignature: string }>;
  /** Signature of the reply's text part, if it had one. */
  textSignature?: string;
  /** Signatures of function calls, by gateway tool call id. */
  callSignatures: Map<string, string>;
}

/**
 * Reads back what `thoughtRecord`/`signatureRecord` produced. Records of other formats (another provider's
 * signatures would fail Gemini's validation) and malformed records are left out; the rest is used verbatim.
 */
export function planSignatures(records: readonly ReasoningBlock[]): SignaturePlan {
  const plan: SignaturePlan = { thoughts: [], callSignatures: new Map() };
  for (const record of records) {
    if (record.format !== GEMINI_REASONING_FORMAT) continue;
    if (record.data === undefined && typeof record.signature === 'string' && record.signature !== '') {
      plan.thoughts.push({
        text: typeof record.text === 'string' ? record.text : '',
        thought: true,
        thoughtSignature: record.signature,
      });
    } else if (typeof record.data === 'string' && record.data !== '') {
      if (typeof record.callId === 'string' && record.callId !== '') {
        if (!plan.callSignatures.has(record.callId)) plan.callSignatures.set(record.callId, record.data);
      } else {
        plan.textSignature ??= record.data;
      }
    }
  }
  return plan;
}
