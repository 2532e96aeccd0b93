// docs/compatibility.md, the output of the last `make compatibility`: the matrix (✅, or ❌ with the failure's
// first line), the client versions, the date and run time, and the configuration each client ran with, rendered
// by the same driver code that wrote it into the client's HOME.
import { clientPackageVersion } from './client-packages.js';
import type { ClientDriver } from './clients/driver.js';
import type { CellResult, Family } from './cells.js';

export interface ReportInput {
  results: CellResult[];
  clients: ClientDriver[];
  families: Family[];
  started: Date;
  seconds: number;
  concurrency: number;
  /** The commit the gateway and the harness were built from. */
  commit: string;
}

export function clientVersion(driver: ClientDriver): string {
  return clientPackageVersion(driver.npmPackage);
}

const escapeCell = (text: string) =>
  text
    .replace(/\|/g, '\\|')
    .replace(/[<>]/g, (c) => (c === '<' ? '&lt;' : '&gt;'))
    .replace(/`/g, "'");

/** ✅ or ❌ per turn, plain first; turns failing with the same first line share it. */
function cell(results: CellResult[]): string {
  if (!results.length) return 'not run';
  const ordered = [...results].sort((a, b) => a.turn.localeCompare(b.turn));
  const lines: string[] = [];
  for (const result of ordered) {
    if (result.ok) {
      lines.push(`✅ ${result.turn}${result.transport ? ` (${result.transport})` : ''}`);
      continue;
    }
    const detail = escapeCell(result.detail.length > 160 ? `${result.detail.slice(0, 157)}...` : result.detail);
    const same = lines.findIndex((line) => line.startsWith('❌') && line.endsWith(`: ${detail}`));
    if (same >= 0) lines[same] = lines[same].replace(/^❌ ([a-z, ]+):/, `❌ $1, ${result.turn}:`);
    else lines.push(`❌ ${result.turn}: ${detail}`);
  }
  return lines.join('<br>');
}

export function renderReport({
  results,
  clients,
  families,
  started,
  seconds,
  concurrency,
  commit,
}: ReportInput): string {
  const passed = results.filter((r) => r.ok).length;
  const header = `| Client | Version | ${families.map((f) => `${f.name}<br>\`${f.model}\``).join(' | ')} |`;
  const rule = `|---|---|${families.map(() => '---').join('|')}|`;
  const rows = clients.map((client) => {
    const cells = families.map((family) =>
      cell(results.filter((r) => r.client === client.id && r.family === family.id)),
    );
    return `| <a id="${client.id}"></a>[${client.name}](#config-${client.id}) | \`${client.npmPackage}@${clientVersion(client)}\` | ${cells.join(' | ')} |`;
  });
  const configs = clients.flatMap((client) => {
    const snippet = client.snippet({ origin: 'http://127.0.0.1:8080', model: families[0]?.model ?? 'openai/gpt-5.5' });
    return [
      `### <a id="config-${client.id}"></a>${client.name}`,
      '',
      `[Setup in docs/clients.md](clients.md#${client.docsAnchor})`,
      '',
      `\`\`\`${snippet.language}`,
      snippet.text,
      '```',
      '',
    ];
  });
  return [
    '# Client compatibility',
    '',
    '<!-- Written by `make compatibility` (test/compat/run-matrix.ts). Do not edit: run it again. -->',
    '',
    `Last run: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC on commit ${commit}, ${results.length} cells in ${seconds} s (${concurrency} clients at a time); ${passed} pass.`,
    '',
    'Each real agent CLI runs headless against the gateway (in a temp HOME, telemetry and auto-update off, nothing but',
    "loopback reachable), configured with only the provider block below and the cell's model; the gateway's providers",
    "point at a local recorded upstream that answers in each vendor's own wire format. A **plain** turn passes when the",
    "client prints the upstream's answer; a **tool** turn when the client ran its file-reading tool on the model's call",
    "and the next turn carried the file's content back (the upstream answers with the token it found in the result).",
    'A **defaults** turn runs the client on its own default model (no model set) and passes only when the gateway',
    "answered none of its requests, start-up calls included, with a 404. A client that asks for the Responses API's",
    'WebSocket mode (Codex) shows the transport its turns used: WebSocket, HTTP, or WebSocket then HTTP after a fallback.',
    '`make test` runs one plain cell per client (test/compat/one-cell-per-client.test.ts).',
    '',
    header,
    rule,
    ...rows,
    '',
    '## Configuration per client',
    '',
    'The gateway at `http://127.0.0.1:8080`, a Modelgate key in `MODELGATE_API_KEY`; each cell sets its own model in',
    'place of the one shown.',
    '',
    ...configs,
  ].join('\n');
}
