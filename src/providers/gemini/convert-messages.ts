// Gateway messages → Gemini `systemInstruction` + `contents`. Gemini has two roles: `user` (text, images and
// function responses) and `model` (text, thoughts and function calls), and wants them alternating, so
// consecutive turns of one role are merged into one content: parallel tool results travel together, as the
// function-calling guide requires. System and developer messages become the system instruction.
import type { ChatMessage, ToolCall } from '../../core/chat-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import { convertUserContent, joinText, type GeminiPart } from './convert-content.js';
import { planSignatures, SKIP_SIGNATURE_VALIDATION } from './thought-signatures.js';

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface ConvertedMessages {
  systemInstruction?: { parts: GeminiPart[] };
  contents: GeminiContent[];
}

export interface ConvertMessagesOptions {
  /** Gemini 3+: the first function call of every model step needs a signature (the sentinel if none was kept). */
  signaturesRequired: boolean;
}

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `function.arguments` is a JSON string; Gemini wants the object. Broken JSON from another model is kept, wrapped. */
function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : { arguments: value };
  } catch {
    return { arguments: text };
  }
}

/** Tool results are strings; Gemini wants an object, with non-object output under `output` (its documented key). */
function functionResponseBody(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : { output: value };
  } catch {
    return { output: text };
  }
}

function functionCallPart(call: ToolCall, signature: string | undefined): GeminiPart {
  const part: GeminiPart = { functionCall: { name: call.function.name, args: parseArguments(call.function.arguments) } };
  if (signature !== undefined) part.thoughtSignature = signature;
  return part;
}

/** An earlier reply, rebuilt part by part: signed thoughts, the text, then the function calls in order. */
function modelParts(message: AssistantMessage, options: ConvertMessagesOptions): GeminiPart[] {
  const plan = planSignatures(message.reasoning_details);
  const parts: GeminiPart[] = [...plan.thoughts];
  const text = joinText(message.content);
  if (text !== '') parts.push(plan.textSignature ? { text, thoughtSignature: plan.textSignature } : { text });
  (message.tool_calls ?? []).forEach((call, position) => {
    let signature = plan.callSignatures.get(call.id);
    if (signature === undefined && position === 0 && options.signaturesRequired) signature = SKIP_SIGNATURE_VALIDATION;
    parts.push(functionCallPart(call, signature));
  });
  return parts;
}

/** Gemini matches a function response by name; the name comes from the assistant call with that id. */
function toolNames(messages: readonly ChatMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  }
  return names;
}

export function convertMessages(messages: readonly ChatMessage[], options: ConvertMessagesOptions): ConvertedMessages {
  const names = toolNames(messages);
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return; // Gemini rejects a content without parts
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = joinText(message.content, '\n');
        if (text !== '') system.push({ text });
        break;
      }
      case 'user':
        push('user', convertUserContent(message.content));
        break;
      case 'assistant':
        push('model', modelParts(message, options));
        break;
      case 'tool': {
        const name = names.get(message.tool_call_id);
        if (name === undefined) {
          throw new GatewayError(400, `Invalid request: tool message answers tool_call_id "${message.tool_call_id}", which no earlier assistant message requested`, {
            reason: 'unknown_tool_call_id',
            field: 'messages',
          });
        }
        push('user', [{ functionResponse: { name, response: functionResponseBody(joinText(message.content)) } }]);
        break;
      }
    }
  }
  if (!contents.some((content) => content.role === 'user')) {
    // Gemini rejects empty text and needs a user turn to answer; with every user message empty there is none.
    throw new GatewayError(400, 'Invalid request: every user message is empty, so there is nothing for the model to answer', {
      reason: 'empty_conversation',
      field: 'messages',
    });
  }
  const converted: ConvertedMessages = { contents };
  if (system.length > 0) converted.systemInstruction = { parts: system };
  return converted;
}
