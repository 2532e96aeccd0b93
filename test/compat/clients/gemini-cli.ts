// Gemini CLI 0.61 (`gemini -p -o json`): two variables and the auth type pinned in ~/.gemini/settings.json, as
// docs/clients.md shows (0.61 refuses GOOGLE_GEMINI_BASE_URL without it: google-gemini/gemini-cli#27550). The
// harness adds usage statistics, telemetry and auto-update off, and --skip-trust for its throwaway workspace.
import { mkdirSync, writeFileSync } from 'node:fs';
import { exportsOf, firstLine, printedJson, type ClientDriver } from './driver.js';

const SETTINGS = { security: { auth: { selectedType: 'gemini-api-key' } } };

export const geminiCli: ClientDriver = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  npmPackage: '@google/gemini-cli',
  binary: 'gemini',
  docsAnchor: 'gemini-cli',
  snippet: ({ origin, model }) => ({
    language: 'sh',
    text: [
      `export GOOGLE_GEMINI_BASE_URL=${origin}/api/v1/gemini`,
      'export GEMINI_API_KEY=$MODELGATE_API_KEY',
      `export GEMINI_MODEL=${model}`,
      `# ~/.gemini/settings.json`,
      `# ${JSON.stringify(SETTINGS)}`,
    ].join('\n'),
  }),
  prepare(values, paths, key, prompt) {
    mkdirSync(`${paths.home}/.gemini`, { recursive: true });
    const harness = { privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false }, general: { enableAutoUpdate: false, enableAutoUpdateNotification: false } };
    writeFileSync(`${paths.home}/.gemini/settings.json`, JSON.stringify({ ...SETTINGS, ...harness }, null, 2));
    return {
      args: ['--skip-trust', '-p', prompt, '-o', 'json'],
      env: { ...exportsOf(this.snippet(values).text, key), GEMINI_TELEMETRY_ENABLED: 'false' },
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
