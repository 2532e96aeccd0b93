// Cline CLI 3.0 (`cline --json`): `cline auth` stores Modelgate as an OpenAI-compatible provider, as
// docs/clients.md shows. The harness turns auto-update off and opts out of telemetry.
import { mkdirSync, writeFileSync } from 'node:fs';
import { firstLine, jsonLines, type ClientDriver } from './driver.js';

export const cline: ClientDriver = {
  id: 'cline',
  name: 'Cline CLI',
  npmPackage: 'cline',
  binary: 'cline',
  docsAnchor: 'cline-cli',
  snippet: ({ origin, model }) => ({
    language: 'sh',
    text: `cline auth -p openai -k $MODELGATE_API_KEY -m ${model} -b ${origin}/api/v1`,
  }),
  prepare(values, paths, key, prompt) {
    mkdirSync(`${paths.home}/.cline/data/settings`, { recursive: true });
    writeFileSync(`${paths.home}/.cline/data/settings/global-settings.json`, JSON.stringify({ telemetryOptOut: true }));
    const auth = this.snippet(values).text.replace('$MODELGATE_API_KEY', key).split(' ').slice(1);
    return { setup: [auth], args: ['--json', prompt], env: { CLINE_NO_AUTO_UPDATE: '1' } };
  },
  parse(stdout, stderr) {
    const events = jsonLines(stdout);
    const result = events.filter((e) => e.type === 'run_result').at(-1);
    const error = events.filter((e) => e.type === 'error' || e.error).at(-1);
    if (result && typeof result.text === 'string' && !result.error) return { answer: result.text };
    if (result?.error || error)
      return {
        error: firstLine(
          String(result?.error?.message ?? result?.error ?? error?.message ?? error?.error?.message ?? error?.error),
        ),
      };
    return { error: firstLine(stderr || stdout) || 'no run_result' };
  },
};
