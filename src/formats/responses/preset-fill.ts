// A preset's settings in a Responses request (formats/shared/preset-fields.ts): the system prompt as `instructions`,
// its output cap as `max_output_tokens`, its reasoning effort as `reasoning.effort`, its functions as function tools.
// The Responses API has no stop strings: a preset's are not sent on this door.
import type { PresetSettings } from '../../core/preset.js';
import { fillAbsent, presetFunctions } from '../shared/preset-fields.js';
import type { ResponseRequest } from './wire-types.js';

export function responsesWithPreset(body: ResponseRequest, preset: PresetSettings): ResponseRequest {
  const filled = { ...body } as Record<string, unknown>;
  fillAbsent(filled, 'instructions', preset.system);
  fillAbsent(filled, 'temperature', preset.temperature);
  fillAbsent(filled, 'top_p', preset.top_p);
  fillAbsent(filled, 'max_output_tokens', preset.max_tokens);
  const effort = preset.reasoning?.effort;
  fillAbsent(filled, 'reasoning', effort === undefined ? undefined : { effort });
  fillAbsent(
    filled,
    'tools',
    presetFunctions(preset.tools)?.map((f) => ({
      type: 'function',
      name: f.name,
      ...(f.description === undefined ? {} : { description: f.description }),
      parameters: f.parameters ?? { type: 'object', properties: {} },
      ...(f.strict === undefined ? {} : { strict: f.strict }),
    })),
  );
  return filled as ResponseRequest;
}
