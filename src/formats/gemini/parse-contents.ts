// Gemini `systemInstruction` + `contents` → the internal instructions and conversation, part by part and in order.
// A model turn's parts become reasoning records (thought parts and thought signatures, reasoning-signatures.ts),
// text and tool calls (a call without an id gets one, which its response finds by name); a user turn's parts are
// read by parse-parts.ts. Roles: `user` (or none, or the legacy `function`) and `model`.
import type { AssistantBlock } from '../../core/content-blocks.js';
import type { Instruction, Turn } from '../../core/generation-request.js';
import { invalidRequest, partKind, PendingCalls, unsupportedPart, userBlock } from './parse-parts.js';
import { recordsOfSignature } from './reasoning-signatures.js';
import type { GeminiContent, GeminiPart } from './wire-types.js';

export function parseSystemInstruction(content: GeminiContent | undefined): Instruction[] {
  if (!content) return [];
  const texts = content.parts
    .map((part, i) => {
      if (typeof part.text !== 'string' || partKind(part) !== 'text') {
        throw invalidRequest(
          `systemInstruction.parts[${i}]: a system instruction holds text parts only`,
          `systemInstruction.parts[${i}]`,
        );
      }
      return { type: 'text' as const, text: part.text };
    })
    .filter((block) => block.text !== '');
  return texts.length === 0 ? [] : [{ content: texts }];
}

function modelBlocks(parts: readonly GeminiPart[], field: string, turn: number, calls: PendingCalls): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  let records = 0;
  let callsMade = 0;
  const signed = (signature: string | undefined, on: { thought?: string; callId?: string }) => {
    if (!signature) return;
    const found = recordsOfSignature(signature, on, records);
    records += found.length;
    blocks.push(...found);
  };
  parts.forEach((part, i) => {
    const at = `${field}.parts[${i}]`;
    const kind = partKind(part);
    const signature = part.thoughtSignature || undefined;
    if (part.thought === true && kind === 'text') {
      if (signature) signed(signature, { thought: part.text });
      else if (part.text) blocks.push({ type: 'reasoning', text: part.text, index: records++ });
      return;
    }
    switch (kind) {
      case 'text':
        signed(signature, {});
        if (part.text) blocks.push({ type: 'text', text: part.text });
        return;
      case 'functionCall': {
        const call = part.functionCall!;
        const id = call.id || `call_${turn}_${callsMade}`;
        callsMade++;
        calls.add(id, call.name);
        signed(signature, { callId: id });
        blocks.push({
          type: 'tool_call',
          id,
          name: call.name,
          kind: 'function',
          input: JSON.stringify(call.args ?? {}),
        });
        return;
      }
      case 'empty':
        signed(signature, {}); // a signature on a part of its own (Gemini 3 ends replies so)
        return;
      case 'inlineData':
      case 'fileData':
      case 'functionResponse':
        throw invalidRequest(`${at}: a ${kind} part is only allowed in a user turn`, `${at}.${kind}`);
      default:
        throw unsupportedPart(kind, at);
    }
  });
  return blocks;
}

export function parseContents(contents: readonly GeminiContent[]): Turn[] {
  const calls = new PendingCalls();
  return contents.map((content, i): Turn => {
    const field = `contents[${i}]`;
    const role = content.role ?? 'user';
    if (role === 'model') return { role: 'assistant', content: modelBlocks(content.parts, field, i, calls) };
    if (role !== 'user' && role !== 'function') {
      throw invalidRequest(`${field}.role must be "user" or "model", got "${role}"`, `${field}.role`);
    }
    return {
      role: 'user',
      content: content.parts.flatMap((part, j) => userBlock(part, `${field}.parts[${j}]`, calls)),
    };
  });
}
