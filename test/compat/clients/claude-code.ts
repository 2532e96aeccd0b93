// Claude Code 2.1 (`claude -p --output-format json`): three variables, as docs/clients.md shows. Telemetry,
// auto-update, error reports and nonessential traffic off (its /v1/messages request is the same with them off).
import { exportsOf, firstLine, printedJson, type ClientDriver } from './driver.js';

export const claudeCode: ClientDriver = {
  id: 'claude-code',
  name: 'Claude Code',
  npmPackage: '@anthropic-ai/claude-code',
  binary: 'claude',
  docsAnchor: 'claude-code-and-the-anthropic-sdks',
  snippet: ({ origin, model }) => ({
    language: 'sh',
    text: [
      `export ANTHROPIC_BASE_URL=${origin}/api`,
      'export ANTHROPIC_AUTH_TOKEN=$MODELGATE_API_KEY',
      `export ANTHROPIC_MODEL=${model}`,
    ].join('\n'),
  }),
  prepare(values, paths, key, prompt) {
    return {
      args: ['-p', prompt, '--output-format', 'json'],
      env: {
        ...exportsOf(this.snippet(values).text, key),
        CLAUDE_CONFIG_DIR: `${paths.home}/.claude`,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_TELEMETRY: '1',
        DISABLE_AUTOUPDATER: '1',
        DISABLE_ERROR_REPORTING: '1',
      },
    };
  },
  parse(stdout, stderr) {
    const result = printedJson(stdout);
    if (!result) return { error: firstLine(stderr || stdout) || 'no output' };
    if (result.is_error) return { error: firstLine(String(result.result ?? result.subtype ?? 'is_error')) };
    return { answer: String(result.result ?? '') };
  },
};
