// The shape of the house (ARCHITECTURE.md, "Front doors, back doors, one pipeline, two lanes"), held against the
// code's own imports, so that it stays: no import along one of the board's "never" arrows, no import circle, no Koa
// below the HTTP layer, and a core that imports nothing of the project. The board is docs/architecture-board.json,
// the repository's copy of the team's board (its parts, arrows and "never" arrows); a failure names the imports.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { importCircles, reachable, readImportGraph } from '../helpers/import-graph.js';

interface Board {
  parts: Record<string, { is: string[]; says: string }>;
  arrows: [string, string][];
  never: [string, string, string][];
}

const board = JSON.parse(readFileSync('docs/architecture-board.json', 'utf8')) as Board;
const graph = readImportGraph(process.cwd(), ['src', 'bench']);
const sources = graph.files.filter((file) => file.startsWith('src/'));

/**
 * "Never" arrows finer than the board's parts (a board holds at most 30, each between two of its parts): no file under
 * the first folder imports one under the second.
 */
const FOLDER_NEVERS: [string, string, string][] = [
  ['src/http/', 'src/repositories/', 'credentials are looked up in auth/'],
  ['src/http/', 'src/billing/', 'money is admitted by the pipeline, not by HTTP middleware'],
  ['src/auth/', 'src/guardrails/', 'a principal carries the guardrail shape from core'],
  ['src/guardrails/', 'src/http/', 'guardrails know no Koa'],
  ['src/guardrails/', 'src/formats/', 'guardrails run on the request as data, so no door can skip them'],
  ['src/guardrails/', 'src/providers/', 'guardrails run before and after the upstream, never inside it'],
  ['src/guardrails/', 'src/pipeline/', 'the pipeline runs the guardrails'],
  ['src/presets/', 'src/http/', 'presets know no Koa'],
  ['src/presets/', 'src/pipeline/', 'a preset fills the request before the pipeline reads it'],
  ['src/presets/', 'src/formats/', 'each door fills a preset into its own fields'],
  ['src/response-state/', 'src/http/', 'stored turns know no Koa: an edge hands its own memory in'],
  ['src/response-state/', 'src/pipeline/', 'a chain is expanded before the pipeline reads the request'],
  ['src/response-state/', 'src/formats/', 'a stored turn is data; the Responses door reads it'],
];

const places = (place: string, file: string) => (place.endsWith('/') ? file.startsWith(place) : file === place);

/** A file's part: the part whose `is` names the file or a folder above it. */
function partOf(file: string): string | undefined {
  return Object.entries(board.parts).find(([, part]) => part.is.some((place) => places(place, file)))?.[0];
}

/** Everything the HTTP layer calls takes and gives plain data: none of it, nor anything it uses, may name Koa. */
const KOA_FREE = [
  'src/pipeline/',
  'src/routing/',
  'src/limits/',
  'src/pass/',
  'src/billing/',
  'src/formats/',
  'src/providers/',
  'src/core/',
  'src/catalog/',
  'src/guardrails/',
  'src/presets/',
  'src/response-state/',
];
const isKoa = (specifier: string) =>
  specifier === 'koa' || specifier.startsWith('koa-') || specifier.startsWith('@koa/');

const edges = sources.flatMap((from) => (graph.imports.get(from) ?? []).map((to) => ({ from, to })));

describe('architecture: the board against the imports', () => {
  it('reads the source tree and places its folders on the board', () => {
    expect(sources.length).toBeGreaterThan(300);
    // A part whose files moved away would hold its rules over nothing.
    for (const [name, part] of Object.entries(board.parts)) {
      for (const place of part.is)
        expect(
          sources.some((file) => places(place, file)),
          `${name}: ${place}`,
        ).toBe(true);
    }
    for (const [from, to] of [...board.arrows, ...board.never.map(([a, b]) => [a, b])]) {
      expect(board.parts[from], from).toBeDefined();
      expect(board.parts[to], to).toBeDefined();
    }
  });

  it('keeps every "never" arrow', () => {
    const broken = edges.flatMap(({ from, to }) => {
      const rule = board.never.find(([a, b]) => a === partOf(from) && b === partOf(to));
      return rule ? [`${rule[0]} -> ${rule[1]} (${rule[2]}): ${from} -> ${to}`] : [];
    });
    expect(broken).toEqual([]);
  });

  it('keeps every folder-level "never" arrow', () => {
    const broken = edges.flatMap(({ from, to }) =>
      FOLDER_NEVERS.filter(([a, b]) => from.startsWith(a) && to.startsWith(b)).map(
        ([a, b, why]) => `${a} -> ${b} (${why}): ${from} -> ${to}`,
      ),
    );
    expect(broken).toEqual([]);
  });

  it('places every file of src/ on a part, but the process-wide settings and log', () => {
    // A folder on no part is held to no rule; config.ts and logger.ts are read by every floor.
    const unplaced = sources.filter((file) => partOf(file) === undefined);
    expect(unplaced).toEqual(['src/config.ts', 'src/logger.ts']);
  });

  it('has no import circle in src/ or bench/', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('keeps Koa out of the pipeline and of everything it uses', () => {
    const koa = new Set<string>();
    for (const file of sources.filter((f) => KOA_FREE.some((dir) => f.startsWith(dir)))) {
      for (const [used, chain] of reachable(graph, file)) {
        const named = (graph.packages.get(used) ?? []).find(isKoa);
        if (named) koa.add(`${chain.join(' -> ')} -> ${named}`);
      }
    }
    expect([...koa]).toEqual([]);
  });

  it('keeps routing to the facts: it imports no door and no generated wire type', () => {
    // A door is described once, in formats/<door>/: it reads its own JSON into RequestFacts (core/request-facts.ts),
    // and routing plans from those alone, so adding a door touches no routing file. Nothing routing uses reaches a
    // door either; the catalog it reads renders its own /models listing from generated/, which is no door's.
    const routing = sources.filter((file) => file.startsWith('src/routing/'));
    const found = new Set<string>();
    for (const file of routing) {
      for (const to of graph.imports.get(file) ?? []) if (to.startsWith('generated/')) found.add(`${file} -> ${to}`);
      for (const [used, chain] of reachable(graph, file)) {
        for (const to of graph.imports.get(used) ?? [])
          if (to.startsWith('src/formats/')) found.add(`${chain.join(' -> ')} -> ${to}`);
      }
    }
    expect([...found]).toEqual([]);
  });

  it("keeps routing from reading a door's JSON: no door-only member is read there", () => {
    // Members only a door's wire body has (Gemini parts, Messages and Responses tool caps, chat's search options): a
    // routing file that reads one is reading a door's JSON, which the door's own request-facts reader should do.
    const members = [
      [
        'inlineData',
        'fileData',
        'googleSearch',
        'google_search',
        'googleMaps',
        'generationConfig',
        'systemInstruction',
      ],
      ['max_uses', 'max_tool_calls', 'additional_tools', 'web_search_options', 'image_url', 'file_data'],
    ].flat();
    const doorMember = new RegExp(`\\.(${members.join('|')})\\b`);
    const readers = sources
      .filter((file) => file.startsWith('src/routing/'))
      .filter((file) => doorMember.test(readFileSync(file, 'utf8')));
    expect(readers).toEqual([]);
  });

  it('keeps the core the bottom floor: it imports nothing of the project', () => {
    // Not even generated/: the internal model (GenerationRequest, its blocks and events) is the gateway's own, and no
    // door's wire type is part of it.
    const upward = edges.filter(({ from, to }) => from.startsWith('src/core/') && !to.startsWith('src/core/'));
    expect(upward.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });
});
