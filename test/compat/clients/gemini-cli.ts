// Gemini CLI 0.61 (`gemini -p -o json`): ~/.gemini/settings.json and two variables as docs/clients.md shows (0.61
// refuses GOOGLE_GEMINI_BASE_URL unless the settings pin the key auth: google-gemini/gemini-cli#27550; the other
// settings keep telemetry, usage statistics and updates off), the model with -m, or none: on its defaults the CLI's
// `auto` routing asks a classifier model first, both by Google's bare names. The harness adds --skip-trust for its
// throwaway workspace.
import { mkdirSync, writeFileSync } from 'node:fs';
import { exportsOf, firstLine, printedJson, type ClientDriver } from './driver.js';

const SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  telemetry: { enabled: false },
};

export const geminiCli: ClientDriver = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  npmPackage: '@google/gemini-cli',
  binary: 'gemini',
  defaultFamily: 'gemini',
  docsAnchor: 'gemini-cli-and-the-google-gen-ai-sdks',
  snippet: ({ origin, model }) => ({
    language: 'sh',
    text: [
      `# ~/.gemini/settings.json: ${JSON.stringify(SETTINGS)}`,
      `export GOOGLE_GEMINI_BASE_URL=${origin}/api/v1/gemini`,
      'export GEMINI_API_KEY=$MODELGATE_API_KEY',
      model ? `gemini -m ${model}` : 'gemini',
    ].join('\n'),
  }),
  prepare(values, paths, key, prompt) {
    mkdirSync(`${paths.home}/.gemini`, { recursive: true });
    writeFileSync(`${paths.home}/.gemini/settings.json`, JSON.stringify(SETTINGS, null, 2));
    return {
      args: [...(values.model ? ['-m', values.model] : []), '--skip-trust', '-p', prompt, '-o', 'json'],
      env: exportsOf(this.snippet(values).text, key),
    };
  },
  parse(stdout, stderr) {
    // In 0.61 the JSON result of a failed turn goes to stderr, not stdout.
    const result = printedJson(stdout) ?? printedJson(stderr);
    if (result?.error) return { error: firstLine(String(result.error.message ?? JSON.stringify(result.error))) };
    if (result && typeof result.response === 'string') return { answer: result.response };
    return { error: firstLine(stderr || stdout) || 'no output' };
  },
};
