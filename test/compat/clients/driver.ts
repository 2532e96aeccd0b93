// What the matrix needs from each real client: how the docs configure it (one snippet, rendered with the docs'
// placeholders for docs/compatibility.md and with the live gateway for a run, so the two cannot drift apart), how
// to launch it headless in a throwaway HOME, and how to read its answer or its error from what it printed.
export interface DocsValues {
  /** The gateway origin: http://127.0.0.1:8080 in the docs, the test gateway's in a run. */
  origin: string;
  /** The catalog model id the client is set to; empty: the client's own default model (no model flag). */
  model: string;
}

export interface CellPaths {
  home: string;
  /** The client's working directory (a git repository holding the files a tool turn reads). */
  workspace: string;
}

export interface Launch {
  args: string[];
  /** Client settings beyond the snippet: telemetry, auto-update and update checks off, state kept in HOME. */
  env: Record<string, string>;
  /** Commands run before the prompt, e.g. Cline's `cline auth` (same binary, same env). */
  setup?: string[][];
}

export interface ClientOutcome {
  /** The client's final answer text, when it printed one. */
  answer?: string;
  /** The error the client reported, when it reported one. */
  error?: string;
}

export interface ClientDriver {
  id: string;
  name: string;
  /** The npm package (an exact dependency of test/compat/package.json) and its binary under test/compat/node_modules/.bin. */
  npmPackage: string;
  binary: string;
  /**
   * The family a run on the client's own default model reaches, for clients whose default names a model the gateway
   * must know by the vendor's bare name (a `defaults` cell); absent: the client always runs with a model set.
   */
  defaultFamily?: string;
  /** It asks for the Responses API's WebSocket mode: its cells say which transport they used. */
  websockets?: boolean;
  /** The heading anchor of the client's section in docs/clients.md. */
  docsAnchor: string;
  /** The provider block the docs show, and the language of its code fence. */
  snippet(values: DocsValues): { language: string; text: string };
  /** Writes the snippet and the harness settings into `paths.home`; returns the command line of one turn. */
  prepare(values: DocsValues, paths: CellPaths, key: string, prompt: string): Launch;
  parse(stdout: string, stderr: string): ClientOutcome;
}

/** `export NAME=value` lines of a shell snippet, with $MODELGATE_API_KEY replaced by the key. */
export function exportsOf(snippet: string, key: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of snippet.split('\n')) {
    const match = /^export ([A-Z_][A-Z0-9_]*)=(\S+)/.exec(line.trim());
    if (match) env[match[1]] = match[2].replace('$MODELGATE_API_KEY', key);
  }
  return env;
}

/** JSON objects printed one per line (JSONL event streams), skipping lines that are not JSON. */
export function jsonLines(text: string): Array<Record<string, any>> {
  return text.split('\n').flatMap((line) => {
    const trimmed = line.trim();
    if (!trimmed.startsWith('{')) return [];
    try {
      return [JSON.parse(trimmed) as Record<string, any>];
    } catch {
      return [];
    }
  });
}

/** The JSON document (object or array) a client printed, possibly after other lines, or undefined. */
export function printedJson(text: string): any {
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    if (!/^\s*[[{]/.test(lines[index])) continue;
    try {
      return JSON.parse(lines.slice(index).join('\n'));
    } catch {
      // not a whole document from this line: try the next one
    }
  }
  return undefined;
}

/** A message a client printed raw: the `error.message` (or `message`) of a JSON error body, else its first line. */
export function readableError(text: string): string {
  const json = /\{.*\}/s.exec(text)?.[0];
  if (json) {
    try {
      const parsed = JSON.parse(json) as { error?: { message?: unknown } | string; message?: unknown };
      const message = typeof parsed.error === 'object' ? parsed.error?.message : (parsed.error ?? parsed.message);
      if (typeof message === 'string') return firstLine(message);
    } catch {
      // not JSON: the text as it is
    }
  }
  return firstLine(text);
}

export const firstLine = (text: string): string => text.trim().split('\n')[0]?.trim().slice(0, 200) ?? '';
