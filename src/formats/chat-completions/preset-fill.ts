// A preset's settings in a chat-completions request (formats/shared/preset-fields.ts): the system prompt as a first
// system message unless the request has a system or developer message of its own.
import type { PresetSettings } from '../../core/preset.js';
import { fillAbsent } from '../shared/preset-fields.js';
import type { ChatCompletionRequest } from './wire-types.js';

export function chatWithPreset(body: ChatCompletionRequest, preset: PresetSettings): ChatCompletionRequest {
  const filled = { ...body } as Record<string, unknown>;
  fillAbsent(filled, 'temperature', preset.temperature);
  fillAbsent(filled, 'top_p', preset.top_p);
  if (body.max_completion_tokens === undefined || body.max_completion_tokens === null)
    fillAbsent(filled, 'max_tokens', preset.max_tokens);
  fillAbsent(filled, 'stop', preset.stop);
  fillAbsent(filled, 'reasoning', preset.reasoning);
  fillAbsent(filled, 'tools', preset.tools);
  const ownSystem = body.messages.some((m) => m.role === 'system' || (m.role as string) === 'developer');
  if (preset.system !== undefined && !ownSystem)
    filled.messages = [{ role: 'system', content: preset.system }, ...body.messages];
  return filled as ChatCompletionRequest;
}
