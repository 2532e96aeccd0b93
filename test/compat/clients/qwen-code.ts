// Qwen Code 0.24 (`qwen -p --output-format json`): three variables, as docs/clients.md shows. The harness turns
// usage statistics, telemetry and auto-update off in ~/.qwen/settings.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { exportsOf, firstLine, printedJson, type ClientDriver } from './driver.js';

export const qwenCode: ClientDriver = {
  id: 'qwen-code',
  name: 'Qwen Code',
  npmPackage: '@qwen-code/qwen-code',
  binary: 'qwen',
  docsAnchor: 'qwen-code',
  snippet: ({ origin, model }) => ({
    language: 'sh',
    text: [
      `export OPENAI_BASE_URL=${origin}/api/v1`,
      'export OPENAI_API_KEY=$MODELGATE_API_KEY',
      `export OPENAI_MODEL=${model}`,
    ].join('\n'),
  }),
  prepare(values, paths, key, prompt) {
    mkdirSync(`${paths.home}/.qwen`, { recursive: true });
    const settings = {
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false },
    };
    writeFileSync(`${paths.home}/.qwen/settings.json`, JSON.stringify(settings, null, 2));
    return {
      args: ['-p', prompt, '--output-format', 'json'],
      env: { ...exportsOf(this.snippet(values).text, key), QWEN_TELEMETRY_ENABLED: 'false' },
    };
  },
  parse(stdout, stderr) {
    const result = printedJson(stdout);
    // Either one result object or an array of events whose last `result` entry holds the answer.
    const events: Array<Record<string, any>> = Array.isArray(result) ? result : result ? [result] : [];
    const final = events.filter((e) => e.type === 'result' || 'result' in e || 'response' in e).at(-1);
    if (final?.is_error || final?.error)
      return { error: firstLine(String(final.error?.message ?? final.result ?? JSON.stringify(final.error))) };
    if (final) return { answer: String(final.result ?? final.response ?? '') };
    return { error: firstLine(stderr || stdout) || 'no output' };
  },
};
