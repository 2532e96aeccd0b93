// The OpenCode configuration docs/clients.md shows, shared by OpenCode and its fork Kilo CLI: Modelgate as an
// `@ai-sdk/openai-compatible` provider listing the model, and that model selected. Events of `run --format json`.
import { firstLine, jsonLines, type ClientOutcome, type DocsValues } from './driver.js';

export function openCodeSnippet({ origin, model }: DocsValues): { language: string; text: string } {
  const config = {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      modelgate: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Modelgate',
        options: { baseURL: `${origin}/api/v1`, apiKey: '{env:MODELGATE_API_KEY}' },
        models: { [model]: { name: model } },
      },
    },
    model: `modelgate/${model}`,
  };
  return { language: 'json', text: JSON.stringify(config, null, 2) };
}

/** `text` events carry the answer's parts; `error` events (or a session error) the failure. */
export function parseOpenCodeEvents(stdout: string, stderr: string): ClientOutcome {
  const events = jsonLines(stdout);
  const texts = events.filter((e) => e.type === 'text').map((e) => String(e.part?.text ?? e.text ?? ''));
  const error = events.find((e) => e.type === 'error');
  if (texts.length) return { answer: texts.join('\n') };
  if (error) {
    const detail =
      error.error?.data?.message ?? error.error?.message ?? error.error?.name ?? JSON.stringify(error.error ?? error);
    return { error: firstLine(String(detail)) };
  }
  return {
    error:
      firstLine(
        stderr
          .split('\n')
          .filter((line) => /error/i.test(line))
          .at(-1) ?? stderr,
      ) || 'no text event',
  };
}
