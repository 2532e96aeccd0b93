// `modelgate statusline`: one line of a session's spend, for an agent's status line. Claude Code runs its statusLine
// command with a JSON on stdin whose session_id is the session (its requests name it in metadata.user_id); other
// agents pass --session (Codex's session-id, an X-Task-ID). It asks the gateway (GET /sessions/{id}) with the key in
// the variable --key-env names, and never fails the agent's screen: a gateway that cannot answer prints a short note.
// Only light modules: the agent runs this after every message (command.js would load the database layer).
import { UsageError } from './cli-errors.js';
import type { CommandDefinition } from './command.js';
import { JSON_OPTION, parseOptions } from './parse-options.js';

const DEFAULT_KEY_ENV = 'MODELGATE_API_KEY';

interface SessionAnswer {
  spend_usd: number;
  requests: number;
  budget: { limit_usd: number; remaining_usd: number } | null;
}

export const statuslineCommand: CommandDefinition = {
  name: 'statusline',
  usage: [
    [
      'statusline [--session ID] [--url URL] [--key-env NAME] [--json]',
      "print a session's spend in one line (Claude Code: its statusLine command, the session read from stdin)",
    ],
  ],
  details: [
    'Options:',
    '  --session ID     the session id the agent sends; without it, read from the JSON on stdin (session_id)',
    "  --url URL        the gateway's URL (default: http://127.0.0.1:<PORT>)",
    `  --key-env NAME   the environment variable that holds the API key (default: ${DEFAULT_KEY_ENV})`,
  ].join('\n'),
  async run({ args, config, io, env }) {
    const { values } = parseOptions(args, {
      session: { type: 'string' },
      url: { type: 'string' },
      'key-env': { type: 'string' },
      ...JSON_OPTION,
    });
    const session = values.session ?? sessionFromStdin(await readStdin(io.stdin));
    if (session === undefined) throw new UsageError('--session is needed when stdin holds no session_id');
    const key = env[values['key-env'] ?? DEFAULT_KEY_ENV];
    if (!key)
      throw new UsageError(`no API key: set ${values['key-env'] ?? DEFAULT_KEY_ENV} or name another with --key-env`);
    const base = (values.url ?? `http://127.0.0.1:${config.port}`).replace(/\/+$/, '');
    const url = `${base}/api/v1/sessions/${encodeURIComponent(session)}`;
    let answer: SessionAnswer | undefined;
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(2_000) });
      if (res.status === 404) answer = { spend_usd: 0, requests: 0, budget: null };
      else if (res.ok) answer = (await res.json()) as SessionAnswer;
      else {
        io.out(`modelgate: ${res.status}`);
        return 0;
      }
    } catch {
      io.out('modelgate: unreachable');
      return 0;
    }
    if (values.json) io.out(JSON.stringify({ session, ...answer }));
    else io.out(statusText(answer));
    return 0;
  },
};

/** `$0.0421 · 7 requests · $1.96 left of $2`. */
export function statusText(answer: SessionAnswer): string {
  const parts = [`$${usdText(answer.spend_usd)}`, `${answer.requests} request${answer.requests === 1 ? '' : 's'}`];
  const { budget } = answer;
  if (budget) parts.push(`$${usdText(budget.remaining_usd)} left of $${usdText(budget.limit_usd)}`);
  return parts.join(' · ');
}

/** A USD amount as the API gives it (at most nine decimals), in plain digits: a tiny spend must not print as 1e-7. */
function usdText(usd: number): string {
  return usd.toFixed(9).replace(/\.?0+$/, '');
}

function sessionFromStdin(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  try {
    const parsed = JSON.parse(text) as { session_id?: unknown };
    return typeof parsed.session_id === 'string' && parsed.session_id !== '' ? parsed.session_id : undefined;
  } catch {
    throw new UsageError('stdin is not JSON: pass --session instead');
  }
}

async function readStdin(read: (() => Promise<string>) | undefined): Promise<string> {
  if (read) return read();
  // An interactive terminal has nothing to read: do not wait for it.
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
