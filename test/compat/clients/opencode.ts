// OpenCode 1.18 (`opencode run --format json`): ~/.config/opencode/opencode.json as docs/clients.md shows. The
// harness turns off the models.dev fetch, auto-update and sharing.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { ClientDriver } from './driver.js';
import { openCodeSnippet, parseOpenCodeEvents } from './opencode-config.js';

export const openCode: ClientDriver = {
  id: 'opencode',
  name: 'OpenCode',
  npmPackage: 'opencode-ai',
  binary: 'opencode',
  docsAnchor: 'opencode',
  snippet: openCodeSnippet,
  prepare(values, paths, key, prompt) {
    mkdirSync(`${paths.home}/.config/opencode`, { recursive: true });
    const config = { ...JSON.parse(openCodeSnippet(values).text), autoupdate: false, share: 'disabled' };
    writeFileSync(`${paths.home}/.config/opencode/opencode.json`, JSON.stringify(config, null, 2));
    return {
      args: ['run', '--format', 'json', prompt],
      env: {
        MODELGATE_API_KEY: key,
        XDG_CONFIG_HOME: `${paths.home}/.config`,
        OPENCODE_DISABLE_MODELS_FETCH: '1',
        OPENCODE_DISABLE_AUTOUPDATE: '1',
      },
    };
  },
  parse: parseOpenCodeEvents,
};
