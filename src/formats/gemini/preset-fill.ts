// A preset's settings in a Gemini request (formats/shared/preset-fields.ts): the system prompt as
// `systemInstruction`, sampling, output cap, stop strings and reasoning in `generationConfig` (a budget as
// `thinkingBudget`, an effort as `thinkingLevel`), its functions as one tool of function declarations.
import type { PresetSettings } from '../../core/preset.js';
import { fillAbsent, presetFunctions } from '../shared/preset-fields.js';
import type { GeminiGenerateContentRequest } from './wire-types.js';

function thinkingConfig(reasoning: PresetSettings['reasoning']): Record<string, unknown> | undefined {
  if (reasoning?.max_tokens !== undefined) return { thinkingBudget: reasoning.max_tokens };
  if (reasoning?.effort !== undefined && reasoning.effort !== 'none') return { thinkingLevel: reasoning.effort };
  return undefined;
}

export function geminiWithPreset(
  body: GeminiGenerateContentRequest,
  preset: PresetSettings,
): GeminiGenerateContentRequest {
  const filled = { ...body } as Record<string, unknown>;
  fillAbsent(
    filled,
    'systemInstruction',
    preset.system === undefined ? undefined : { parts: [{ text: preset.system }] },
  );
  const config = { ...(body.generationConfig ?? {}) } as Record<string, unknown>;
  fillAbsent(config, 'temperature', preset.temperature);
  fillAbsent(config, 'topP', preset.top_p);
  fillAbsent(config, 'maxOutputTokens', preset.max_tokens);
  fillAbsent(config, 'stopSequences', preset.stop);
  fillAbsent(config, 'thinkingConfig', thinkingConfig(preset.reasoning));
  if (Object.keys(config).length > 0) filled.generationConfig = config;
  const functions = presetFunctions(preset.tools);
  fillAbsent(
    filled,
    'tools',
    functions === undefined
      ? undefined
      : [
          {
            functionDeclarations: functions.map((f) => ({
              name: f.name,
              ...(f.description === undefined ? {} : { description: f.description }),
              ...(f.parameters === undefined ? {} : { parametersJsonSchema: f.parameters }),
            })),
          },
        ],
  );
  return filled as GeminiGenerateContentRequest;
}
