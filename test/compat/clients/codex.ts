// Codex CLI 0.169 (`codex exec --json`): $CODEX_HOME/config.toml holding only the provider block docs/clients.md
// shows, the model on the command line. The harness adds the update check and analytics off.
import { writeFileSync } from 'node:fs';
import { jsonLines, readableError, type ClientDriver } from './driver.js';

export const codex: ClientDriver = {
  id: 'codex',
  name: 'Codex CLI',
  npmPackage: '@openai/codex',
  binary: 'codex',
  websockets: true,
  docsAnchor: 'codex-cli-and-the-responses-api',
  snippet: ({ origin }) => ({
    language: 'toml',
    text: [
      'model_provider = "modelgate"',
      '',
      '[model_providers.modelgate]',
      'name = "Modelgate"',
      `base_url = "${origin}/api/v1"`,
      'env_key = "MODELGATE_API_KEY"',
      'wire_api = "responses"',
      'supports_websockets = true',
    ].join('\n'),
  }),
  prepare(values, paths, key, prompt) {
    // Top-level keys must come before the first table: the harness's update-check line goes first.
    const config = `check_for_update_on_startup = false\n\n${this.snippet(values).text}\n\n[analytics]\nenabled = false\n\n[feedback]\nenabled = false\n`;
    writeFileSync(`${paths.home}/config.toml`, config);
    return {
      args: ['exec', '--json', '--color', 'never', '-m', values.model, prompt],
      env: { CODEX_HOME: paths.home, MODELGATE_API_KEY: key },
    };
  },
  parse(stdout, stderr) {
    const events = jsonLines(stdout);
    const messages = events
      .filter((e) => e.type === 'item.completed' && e.item?.type === 'agent_message')
      .map((e) => String(e.item.text));
    const failure =
      events.find((e) => e.type === 'turn.failed')?.error?.message ??
      events.filter((e) => e.type === 'error').at(-1)?.message;
    if (failure && !events.some((e) => e.type === 'turn.completed')) return { error: readableError(String(failure)) };
    if (messages.length) return { answer: messages.join('\n') };
    return { error: readableError(String(failure ?? (stderr || 'no agent message'))) };
  },
};
