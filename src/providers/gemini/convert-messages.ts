// The internal instructions and conversation → Gemini `systemInstruction` + `contents`. Gemini has two roles: `user`
// (text, images and function responses) and `model` (text, thoughts and function calls), and wants them alternating,
// so consecutive turns of one role are merged into one content: parallel tool results travel together, as the
// function-calling guide requires. Instructions, wherever they were given, become the system instruction. A user
// turn sends its function responses first, then its other parts, then the images and documents its tool results held
// (a function response carries JSON only).
import type { AssistantBlock, ReasoningBlock, ToolCallBlock, ToolResultBlock } from '../../core/content-blocks.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { GenerationRequest, Instruction, Turn } from '../../core/generation-request.js';
import { convertUserBlocks, type GeminiPart } from './convert-content.js';
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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A call's input is JSON text; Gemini wants the object. Broken JSON from another model is kept, wrapped. */
function parseArguments(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : { arguments: value };
  } catch {
    return { arguments: text };
  }
}

/**
 * Tool results are text; Gemini wants an object, with non-object output under `output` and a failure under `error`
 * (its documented keys).
 */
function functionResponseBody(text: string, isError: boolean): Record<string, unknown> {
  const key = isError ? 'error' : 'output';
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : { [key]: value };
  } catch {
    return { [key]: text };
  }
}

function functionCallPart(call: ToolCallBlock, signature: string | undefined): GeminiPart {
  const part: GeminiPart = { functionCall: { name: call.name, args: parseArguments(call.input) } };
  if (signature !== undefined) part.thoughtSignature = signature;
  return part;
}

/** An earlier reply, rebuilt part by part: signed thoughts, the text, then the function calls in order. */
function modelParts(blocks: readonly AssistantBlock[], options: ConvertMessagesOptions): GeminiPart[] {
  const plan = planSignatures(blocks.filter((block): block is ReasoningBlock => block.type === 'reasoning'));
  const parts: GeminiPart[] = [...plan.thoughts];
  const text = blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
  if (text !== '') parts.push(plan.textSignature ? { text, thoughtSignature: plan.textSignature } : { text });
  blocks
    .filter((block): block is ToolCallBlock => block.type === 'tool_call')
    .forEach((call, position) => {
      let signature = plan.callSignatures.get(call.id);
      if (signature === undefined && position === 0 && options.signaturesRequired)
        signature = SKIP_SIGNATURE_VALIDATION;
      parts.push(functionCallPart(call, signature));
    });
  return parts;
}

/** Gemini matches a function response by name; the name comes from the earlier call with that id. */
function toolNames(turns: readonly Turn[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const turn of turns) {
    if (turn.role !== 'assistant') continue;
    for (const block of turn.content) if (block.type === 'tool_call') names.set(block.id, block.name);
  }
  return names;
}

function functionResponse(result: ToolResultBlock, names: Map<string, string>): GeminiPart {
  const name = names.get(result.callId);
  if (name === undefined) {
    throw new GatewayError(
      400,
      `Invalid request: tool message answers tool_call_id "${result.callId}", which no earlier assistant message requested`,
      {
        reason: 'unknown_tool_call_id',
        field: 'messages',
      },
    );
  }
  const text = result.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('');
  return { functionResponse: { name, response: functionResponseBody(text, result.isError === true) } };
}

function systemPart(instruction: Instruction): GeminiPart | undefined {
  const text = instruction.content.map((block) => block.text).join('\n');
  return text === '' ? undefined : { text };
}

export function convertMessages(
  request: Pick<GenerationRequest, 'system' | 'messages'>,
  options: ConvertMessagesOptions,
): ConvertedMessages {
  const names = toolNames(request.messages);
  const system: GeminiPart[] = request.system.map(systemPart).filter((part): part is GeminiPart => part !== undefined);
  const contents: GeminiContent[] = [];
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return; // Gemini rejects a content without parts
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  for (const turn of request.messages) {
    switch (turn.role) {
      case 'system': {
        const part = systemPart(turn);
        if (part) system.push(part);
        break;
      }
      case 'user': {
        const results = turn.content.filter((block): block is ToolResultBlock => block.type === 'tool_result');
        push('user', [
          ...results.map((result) => functionResponse(result, names)),
          ...convertUserBlocks(turn.content),
          ...convertUserBlocks(results.flatMap((result) => result.content.filter((inner) => inner.type !== 'text'))),
        ]);
        break;
      }
      case 'assistant':
        push('model', modelParts(turn.content, options));
        break;
    }
  }
  if (!contents.some((content) => content.role === 'user')) {
    // Gemini rejects empty text and needs a user turn to answer; with every user message empty there is none.
    throw new GatewayError(
      400,
      'Invalid request: every user message is empty, so there is nothing for the model to answer',
      {
        reason: 'empty_conversation',
        field: 'messages',
      },
    );
  }
  const converted: ConvertedMessages = { contents };
  if (system.length > 0) converted.systemInstruction = { parts: system };
  return converted;
}
