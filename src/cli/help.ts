// What `--help`, `-h`, `help [command]` and `--version` print. Built from the commands' own usage entries, so a new
// command shows up in `modelgate --help` without touching this file.
import { readFileSync } from 'node:fs';
import { CLI, type CommandDefinition } from './command.js';

/** `  npx modelgate <synopsis>   <summary>` lines; a synopsis too long for the column puts its summary on the next line. */
function table(entries: Array<[string, string]>): string {
  const width = Math.min(46, Math.max(...entries.map(([synopsis]) => synopsis.length)));
  const column = `  ${CLI} `.length + width + 2;
  return entries
    .map(([synopsis, summary]) => {
      const left = `  ${CLI} ${synopsis}`;
      return synopsis.length > width ? `${left}\n${' '.repeat(column)}${summary}` : `${left.padEnd(column)}${summary}`;
    })
    .join('\n');
}

export function generalHelp(commands: readonly CommandDefinition[]): string {
  return [
    'modelgate — LLM model gateway',
    '',
    table(commands.flatMap((c) => c.usage)),
    '',
    'Every command answers --help (-h). Output is text for people; --json prints one JSON document for scripts',
    '(and an error as one JSON object on stderr). Exit codes: 0 ok, 1 failed, 2 usage or configuration error.',
    `${CLI} --version prints the version.`,
  ].join('\n');
}

/** `modelgate keys --help`: every form of the command; `modelgate keys create --help`: that subcommand's. */
export function commandHelp(command: CommandDefinition, args: readonly string[]): string {
  const sub = args.find((arg) => !arg.startsWith('-'));
  const own = command.usage.filter(([synopsis]) => sub !== undefined && synopsis.split(' ')[1] === sub);
  const entries = own.length > 0 ? own : command.usage;
  return ['usage:', table(entries), ...(command.details ? ['', command.details] : [])].join('\n');
}

/** The version in the package.json above this file (src/cli/ under tsx, dist/src/cli/ when built). */
export function packageVersion(): string {
  for (const relative of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'modelgate' && pkg.version) return pkg.version;
    } catch {
      // not at this level: try the next
    }
  }
  return 'unknown';
}
