// A preset's settings in a Messages request (formats/shared/preset-fields.ts): the system prompt as `system`, its
// stop strings as `stop_sequences`, a reasoning budget as `thinking` and an effort as `output_config.effort`, its
// functions as Anthropic tools.
import type { PresetSettings } from '../../core/preset.js';
import { fillAbsent, presetFunctions } from '../shared/preset-fields.js';
import type { MessagesRequest } from './wire-types.js';

/** The chat format's efforts in Anthropic's words (`none` asks for no reasoning: nothing to set). */
const EFFORTS: Readonly<Record<string, string>> = {
  minimal: 'low',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'max',
};

export function messagesWithPreset(body: MessagesRequest, preset: PresetSettings): MessagesRequest {
  const filled = { ...body } as Record<string, unknown>;
  fillAbsent(filled, 'system', preset.system);
  fillAbsent(filled, 'temperature', preset.temperature);
  fillAbsent(filled, 'top_p', preset.top_p);
  fillAbsent(filled, 'max_tokens', preset.max_tokens);
  fillAbsent(filled, 'stop_sequences', preset.stop);
  const reasoning = preset.reasoning;
  const ownReasoning = body.thinking !== undefined || body.output_config?.effort !== undefined;
  if (reasoning !== undefined && !ownReasoning) {
    if (reasoning.max_tokens !== undefined && reasoning.max_tokens > 0)
      filled.thinking = { type: 'enabled', budget_tokens: reasoning.max_tokens };
    else if (reasoning.effort !== undefined && EFFORTS[reasoning.effort] !== undefined)
      filled.output_config = { ...body.output_config, effort: EFFORTS[reasoning.effort] };
  }
  fillAbsent(
    filled,
    'tools',
    presetFunctions(preset.tools)?.map((f) => ({
      name: f.name,
      ...(f.description === undefined ? {} : { description: f.description }),
      input_schema: f.parameters ?? { type: 'object', properties: {} },
    })),
  );
  return filled as MessagesRequest;
}
