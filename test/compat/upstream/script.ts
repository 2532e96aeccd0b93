// The recorded upstream's script, keyed on request content (research-clients §10): a prompt holding a marker gets a
// tool call, a conversation that already carries that tool's result gets a text naming what the result held, and
// anything else gets the plain answer. Stateless, so concurrent cells and retried requests get the same answers.
import type { OfferedTool, TurnView } from './read-turn.js';

export const PLAIN_ANSWER = 'COMPAT-PLAIN Hello from the recorded upstream.';
/** `COMPAT-READ <absolute path>`: read that file with the client's file-reading tool. */
export const READ_MARKER = 'COMPAT-READ';
/** `COMPAT-PATCH <file name> <line>`: add that file with the client's freeform apply_patch tool. */
export const PATCH_MARKER = 'COMPAT-PATCH';
/** The answer to a tool result: this prefix, then the token the result held ("image", or "none: …"). */
export const RESULT_PREFIX = 'COMPAT-RESULT';
export const TOKEN_PATTERN = /compat-token-[a-z0-9]+/;

export type Answer =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; name: string; arguments: Record<string, unknown> }
  | { kind: 'custom-tool'; name: string; input: string };

/** Tools that read a file, in the order they are preferred: each client's own name for it, then a shell. */
const READ_TOOLS = [
  'Read',
  'read_file',
  'read',
  'read_files',
  'exec_command',
  'run_shell_command',
  'bash',
  'Bash',
  'shell',
];

export function answerFor(turn: TurnView): Answer {
  // A prompt with both markers is a two-step task: the patch first, then the read; the answer once the read is done.
  if (turn.toolResults !== undefined && !readStillDue(turn))
    return { kind: 'text', text: `${RESULT_PREFIX} ${describeResult(turn.toolResults)}` };
  if (turn.wantsJson)
    return {
      kind: 'text',
      text: JSON.stringify({ complexity_reasoning: 'simple', complexity_score: 10, title: 'Compatibility run' }),
    };
  const patch = new RegExp(`${PATCH_MARKER} ([^\\s"\\\\]+) ([^\\s"\\\\]+)`).exec(turn.conversation);
  if (patch && turn.toolResults === undefined) {
    const input = `*** Begin Patch\n*** Add File: ${patch[1]}\n+${patch[2]}\n*** End Patch\n`;
    const applyPatch = turn.tools.find((tool) => tool.name === 'apply_patch');
    if (applyPatch?.kind === 'custom') return { kind: 'custom-tool', name: 'apply_patch', input };
    // A freeform tool offered through a protocol without them (a translating gateway) is a function of one string.
    const fields = Object.keys((applyPatch?.schema?.properties as object | undefined) ?? {});
    if (applyPatch && fields.length === 1)
      return { kind: 'tool', name: 'apply_patch', arguments: { [fields[0]]: input } };
    // Without the tool (Codex on a model it does not know), the patch goes through the shell as Codex's instructions
    // say, where Codex applies it itself.
    const shell = turn.tools.find((tool) => tool.name === 'exec_command' && tool.kind === 'function');
    if (!applyPatch && shell)
      return { kind: 'tool', name: 'exec_command', arguments: { cmd: `apply_patch <<'EOF'\n${input}EOF\n` } };
  }
  const read = new RegExp(`${READ_MARKER} ([^\\s"\\\\]+)`).exec(turn.conversation);
  const tool = READ_TOOLS.map((name) =>
    turn.tools.find((offered) => offered.name === name && offered.kind === 'function'),
  ).find(Boolean);
  if (read && tool) return { kind: 'tool', name: tool.name, arguments: argumentsFor(tool, read[1]) };
  return { kind: 'text', text: PLAIN_ANSWER };
}

/** Both markers were given, a tool ran (the patch), and no result yet holds the file's token (the read). */
function readStillDue(turn: TurnView): boolean {
  return (
    turn.conversation.includes(PATCH_MARKER) &&
    turn.conversation.includes(READ_MARKER) &&
    !TOKEN_PATTERN.test(turn.toolResults ?? '')
  );
}

function describeResult(results: string): string {
  const token = TOKEN_PATTERN.exec(results);
  if (token) return token[0];
  if (/"type":"image"|"inlineData"|"image_url"|"input_image"/.test(results)) return 'image';
  return `none: ${results.replace(/\\n/g, ' ').slice(0, 120)}`;
}

/** The tool's required arguments, filled from its JSON Schema: paths get the file, commands a `cat` of it. */
function argumentsFor(tool: OfferedTool, path: string): Record<string, unknown> {
  const filled = fill(tool.schema ?? {}, '', path);
  return filled && typeof filled === 'object' && !Array.isArray(filled) ? (filled as Record<string, unknown>) : {};
}

function fill(schema: Record<string, any>, name: string, path: string): unknown {
  const type = String(
    Array.isArray(schema.type) ? schema.type[0] : (schema.type ?? (schema.properties ? 'object' : 'string')),
  ).toLowerCase();
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = fill(schema.properties?.[key] ?? {}, key, path);
      return out;
    }
    case 'array':
      return [fill(schema.items ?? {}, name, path)];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return false;
    default:
      if (Array.isArray(schema.enum)) return schema.enum[0];
      return /^(cmd|command|commands)$/i.test(name) ? `cat ${path}` : path;
  }
}
