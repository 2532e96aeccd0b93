// Thought signatures are Gemini's encrypted reasoning state. They ride on response parts (a thought part,
// the last text part, the first functionCall of each step) and must come back on the same kind of part in
// the next request; Gemini 3 answers 400 when the first functionCall of a step in the current turn lacks
// one (https://ai.google.dev/gemini-api/docs/thought-signatures). The gateway carries them to the client as
// `reasoning_details` and back:
//   signed thought part   ⇄ {type: "reasoning.text", text, signature, format: "google-gemini-v1", index}
//   signed text part      ⇄ {type: "reasoning.encrypted", data, format: "google-gemini-v1", index}
//   signed functionCall   ⇄ {type: "reasoning.encrypted", data, id: <tool call id>, format: "google-gemini-v1", index}
import type { ReasoningDetail } from '../../core/chat-types.js';

export const GEMINI_REASONING_FORMAT = 'google-gemini-v1';

/**
 * Documented stand-in for a signature the client did not keep (most chat-completions clients drop
 * `reasoning_details`); it tells Gemini 3 to skip validation instead of failing the whole request.
 */
export const SKIP_SIGNATURE_VALIDATION = 'skip_thought_signature_validator';

export function thoughtDetail(text: string, signature: string, index: number): ReasoningDetail {
  return { type: 'reasoning.text', text, signature, format: GEMINI_REASONING_FORMAT, index };
}

export function signatureDetail(signature: string, index: number, toolCallId?: string): ReasoningDetail {
  const detail: ReasoningDetail = { type: 'reasoning.encrypted', data: signature, format: GEMINI_REASONING_FORMAT, index };
  if (toolCallId !== undefined) detail.id = toolCallId;
  return detail;
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
 * Reads back what `thoughtDetail`/`signatureDetail` produced. Blocks of other formats (another provider's
 * signatures would fail Gemini's validation) and malformed blocks are left out; the rest is used verbatim.
 */
export function planSignatures(details: readonly ReasoningDetail[] | null | undefined): SignaturePlan {
  const plan: SignaturePlan = { thoughts: [], callSignatures: new Map() };
  for (const detail of details ?? []) {
    if (typeof detail !== 'object' || detail === null || detail.format !== GEMINI_REASONING_FORMAT) continue;
    if (detail.type === 'reasoning.text' && typeof detail.signature === 'string' && detail.signature !== '') {
      plan.thoughts.push({ text: typeof detail.text === 'string' ? detail.text : '', thought: true, thoughtSignature: detail.signature });
    } else if (detail.type === 'reasoning.encrypted' && typeof detail.data === 'string' && detail.data !== '') {
      if (typeof detail.id === 'string' && detail.id !== '') {
        if (!plan.callSignatures.has(detail.id)) plan.callSignatures.set(detail.id, detail.data);
      } else {
        plan.textSignature ??= detail.data;
      }
    }
  }
  return plan;
}
