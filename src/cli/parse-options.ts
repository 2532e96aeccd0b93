// Command options, read with node:util's parseArgs but checked first with messages of our own: Node's parser text
// ("Unknown option '--emial'. To specify a positional argument starting with a '-' ...") names its own workings, not
// what to type. An unknown option names the closest valid one, or lists them all when none is close.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closestWord } from './closest-word.js';
import { UsageError } from './cli-errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `--usd -2.5` would read "-2.5" as an option; glue negative numbers to their option first. */
function joinNegativeNumbers(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith('--') && !args[i].includes('=') && /^-\d/.test(args[i + 1] ?? '')) {
      joined.push(`${args[i]}=${args[i + 1]}`);
      i++;
    } else joined.push(args[i]);
  }
  return joined;
}

function unknownOption(rawName: string, options: Options): UsageError {
  const valid = Object.keys(options).map((name) => `--${name}`);
  const near = closestWord(rawName, valid);
  return new UsageError(
    near
      ? `unknown option ${rawName}; did you mean ${near}?`
      : `unknown option ${rawName}; valid options: ${valid.join(', ') || 'none'}`,
  );
}

/** The first thing wrong with the arguments, worded for a person, or undefined when parseArgs will accept them. */
function firstProblem(args: string[], options: Options): UsageError | undefined {
  const { tokens } = parseArgs({ args, options, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind === 'positional') {
      return new UsageError(`unexpected argument "${token.value}": every value follows its option (--name value)`);
    }
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (!option || token.rawName !== `--${token.name}`) return unknownOption(token.rawName, options);
    if (option.type === 'boolean' && token.value !== undefined)
      return new UsageError(`${token.rawName} takes no value, got "${token.value}"`);
    if (
      option.type === 'string' &&
      (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))
    ) {
      return new UsageError(
        `${token.rawName} needs a value (a value starting with "-" is written ${token.rawName}=-value)`,
      );
    }
  }
  return undefined;
}

export function parseOptions<T extends Options>(args: string[], options: T) {
  const joined = joinNegativeNumbers(args);
  const problem = firstProblem(joined, options);
  if (problem) throw problem;
  try {
    return parseArgs({ args: joined, options, allowPositionals: false, strict: true });
  } catch {
    // firstProblem rules out every refusal of strict parseArgs; should one slip through, it still gets our wording.
    throw new UsageError(`cannot read the options ${JSON.stringify(args.join(' '))}`);
  }
}

/** The `--json` option every command takes. */
export const JSON_OPTION = { json: { type: 'boolean' } } as const;
