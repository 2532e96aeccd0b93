// Gemini API answers: `streamGenerateContent?alt=sse` as bare `data:` lines (no `event:` line: Google's SDK parser
// rejects anything else), the last chunk with finishReason; `generateContent` as one GenerateContentResponse. A tool
// call carries a thought part and a thoughtSignature, as Gemini 3 models send them.
import type { Answer } from './script.js';

export const THOUGHT_SIGNATURE = 'Y29tcGF0LXNpZ25hdHVyZQ==';

export function renderGemini(
  answer: Answer,
  model: string,
  stream: boolean,
  thoughts: boolean,
): { type: string; chunks: string[] } {
  const parts: Array<Record<string, unknown>> = [];
  if (answer.kind === 'tool') {
    if (thoughts) parts.push({ text: 'Let me read it.', thought: true });
    parts.push({ functionCall: { name: answer.name, args: answer.arguments }, thoughtSignature: THOUGHT_SIGNATURE });
  } else {
    parts.push({ text: answer.kind === 'text' ? answer.text : answer.input });
  }
  const usageMetadata = { promptTokenCount: 120, candidatesTokenCount: 12, totalTokenCount: 132 };
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata,
    modelVersion: model,
    responseId: `compat-${Date.now()}`,
  };
  if (!stream) return { type: 'application/json', chunks: [JSON.stringify(chunk)] };
  return { type: 'text/event-stream', chunks: [`data: ${JSON.stringify(chunk)}\n\n`] };
}
