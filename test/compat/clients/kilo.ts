// Kilo CLI 7.7 (`kilo run --format json`), an OpenCode fork: the same configuration as OpenCode in
// ~/.config/kilo/kilo.json. The harness turns off the models fetch, auto-update and telemetry.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { ClientDriver } from './driver.js';
import { openCodeSnippet, parseOpenCodeEvents } from './opencode-config.js';

export const kilo: ClientDriver = {
  id: 'kilo',
  name: 'Kilo CLI',
  npmPackage: '@kilocode/cli',
  binary: 'kilo',
  docsAnchor: 'kilo-cli',
  snippet: openCodeSnippet,
  prepare(values, paths, key, prompt) {
    mkdirSync(`${paths.home}/.config/kilo`, { recursive: true });
    const config = { ...JSON.parse(openCodeSnippet(values).text), autoupdate: false, share: 'disabled' };
    writeFileSync(`${paths.home}/.config/kilo/kilo.json`, JSON.stringify(config, null, 2));
    return {
      args: ['run', '--format', 'json', prompt],
      env: {
        MODELGATE_API_KEY: key,
        XDG_CONFIG_HOME: `${paths.home}/.config`,
        KILO_DISABLE_MODELS_FETCH: '1',
        KILO_DISABLE_AUTOUPDATE: '1',
        KILO_TELEMETRY_LEVEL: 'off',
      },
    };
  },
  parse: parseOpenCodeEvents,
};
