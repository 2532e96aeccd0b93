// A front door's request made ready for the pipeline, from whatever edge it came through (an HTTP POST, a WebSocket
// frame): what it continues expanded first (the door's stored state, when it keeps any), then the model, the stream
// framing, the facts planning and admission read, the native lane's wire and the translated lane's lazy parse, and
// the renderers. Knows no Koa: the edge hands over the body, its bytes, the headers and who asks.
import type { IncomingHttpHeaders } from 'node:http';
import type { Principal } from '../auth/principal.js';
import { sessionBudgetOf } from './session-budget-header.js';
import type { Config } from '../config.js';
import type { StreamFraming } from '../core/stream-renderer.js';
import { autoCacheWanted } from '../formats/shared/auto-cache-header.js';
import type { DoorCall, FrontDoor } from '../formats/shared/front-door.js';
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { FrontDoorRequest } from '../pipeline/serve-generation.js';
import type { NativeWire } from '../providers/native/native-protocol.js';
import type { ResponseState } from '../response-state/continue-response.js';
import type { ResponseMemory } from '../core/stored-turn.js';
import { turnOwnerOf } from '../response-state/turn-owner.js';
import { organizationModels, type OrganizationModels } from '../catalog/organization-models.js';
import type { RequestFacts } from '../core/request-facts.js';
import type { DoorGuardrails } from '../guardrails/door-guardrails.js';
import { guardrailsAt } from '../core/guardrail.js';
import { guardRequest } from '../guardrails/guard-request.js';
import { NO_GUARDRAIL_SETTINGS } from '../guardrails/guardrail-settings.js';
import type { PresetCache } from '../presets/preset-cache.js';
import { presetModelOf, type PresetVersion } from '../core/preset.js';
import { resolvePreset, withPresetRouting } from '../presets/resolve-preset.js';

/** What a door request reads of the gateway. */
export type DoorRequestParts = Pick<GenerationParts, 'catalog'> & {
  /** Without the operator's guardrail settings, no pattern is defined (a `regex` guardrail finds nothing). */
  config: Pick<Config, 'streamDefault'> & Partial<Pick<Config, 'guardrails'>>;
  /** The gateway's stored responses; absent: no door keeps state (a continuation is refused by the door). */
  responseState?: ResponseState;
  /** The organizations' presets in memory; absent: a request naming a preset finds none (404). */
  presets?: Pick<PresetCache, 'find'>;
};

export interface DoorRequestInput<Body> {
  call: DoorCall<Body>;
  /** The client's own request for the native lane (its bytes are written anew when the body was expanded). */
  wire: NativeWire;
  headers: IncomingHttpHeaders;
  principal: Principal;
  /** The edge's own memory of responses (a WebSocket's): consulted first, and given every turn, `store: false` too. */
  local?: ResponseMemory;
}

export interface ReadyDoorRequest {
  request: FrontDoorRequest;
  /** How the answer is sent: undefined for one JSON body. */
  framing: StreamFraming | undefined;
}

export async function doorRequest<Body>(
  door: FrontDoor<Body>,
  parts: DoorRequestParts,
  input: DoorRequestInput<Body>,
): Promise<ReadyDoorRequest> {
  const { headers } = input;
  const continuation =
    door.continueFrom && parts.responseState
      ? await door.continueFrom(input.call.body, {
          state: parts.responseState,
          owner: turnOwnerOf(input.principal),
          local: input.local,
        })
      : undefined;
  let body = (continuation?.body ?? input.call.body) as Body;
  // The organization's own aliases name catalog models: from here on the request names the catalog's id.
  const models = organizationModels(parts.catalog, input.principal.aliases);
  const settings = { catalog: models, streamDefault: parts.config.streamDefault };
  const asked = door.modelOf({ ...input.call, body }, settings);
  // A preset fills what the request leaves out, in the door's own fields, before anything reads the request: routing,
  // admission, billing, the response cache and the native lane all see the request as it is served.
  const preset = await resolvePreset(parts.presets, { organizationId: input.principal.organizationId, model: asked });
  if (preset) body = door.withPreset(body, preset.settings) as Body;
  const filledWire =
    continuation?.expanded || preset
      ? { ...input.wire, raw: Buffer.from(JSON.stringify(body)), body: body as Record<string, unknown> }
      : input.wire;
  // The input stage, on the request as it is served (expanded, a preset's fields filled): before its facts are read,
  // so estimation, routing and both lanes see what the guardrails left of it.
  const filled = body as Record<string, unknown>;
  const stage = inputStage(input.principal, { body: filled, wire: filledWire }, parts);
  if (stage !== undefined) body = stage.body as Body;
  const wire =
    stage !== undefined && stage.body !== filled ? { ...filledWire, raw: stage.raw, body: stage.body } : filledWire;
  const call = { ...input.call, body };
  const model = models.canonical(preset ? presetModelOf(preset.settings) : asked);
  const framing = door.streamOf(call, settings);
  const stream = framing !== undefined;
  const autoCache = autoCacheWanted(headers);
  const keeping = continuation?.keeping;
  const request: FrontDoorRequest = {
    apiFormat: door.apiFormat,
    protocol: door.protocol,
    facts: factsOf(door, { body, model, preset, models }),
    wire,
    translate: () => door.parse(body, { model, stream, autoCache }),
    stream,
    ...door.renderers(body, keeping),
    // The client's own conversation key first; else the stored chain's first turn, the same on every later turn.
    sessionKey: door.sessionKey(body, headers) ?? continuation?.rootId,
    sessionBudgetNanos: sessionBudgetOf(headers),
  };
  if (keeping) request.keeping = keeping;
  if (stage !== undefined) request.guardrails = stage.guardrails;
  return { request, framing };
}

/**
 * The principal's guardrails with what the input stage found, and the request as it goes on (body and bytes, the
 * same when nothing was redacted); undefined when the principal has none.
 */
function inputStage(
  principal: Principal,
  request: { body: Record<string, unknown>; wire: NativeWire },
  parts: { config: Partial<Pick<Config, 'guardrails'>> },
): { guardrails: DoorGuardrails; body: Record<string, unknown>; raw: Buffer } | undefined {
  const input = guardrailsAt(principal.guardrails, 'input');
  const output = guardrailsAt(principal.guardrails, 'output');
  if (input.length === 0 && output.length === 0) return undefined;
  const settings = parts.config.guardrails ?? NO_GUARDRAIL_SETTINGS;
  const verdict = guardRequest(input, { body: request.body, raw: request.wire.raw }, settings);
  const guardrails: DoorGuardrails = { fired: [...(verdict?.fired ?? [])], output, settings };
  if (verdict?.blockedBy !== undefined) guardrails.blockedBy = verdict.blockedBy;
  return { guardrails, body: verdict?.body ?? request.body, raw: verdict?.raw ?? request.wire.raw };
}

function factsOf<Body>(
  door: FrontDoor<Body>,
  request: { body: Body; model: string; preset: PresetVersion | undefined; models: OrganizationModels },
): RequestFacts {
  const read = door.readFacts(request.body, request.model);
  const facts = request.preset ? withPresetRouting(read, request.preset) : read;
  return request.models.hasOwnAliases ? withCatalogIds(facts, request.models) : facts;
}

/** The request's model and fallback models as catalog ids, where they name the organization's aliases. */
function withCatalogIds(facts: RequestFacts, models: OrganizationModels): RequestFacts {
  const named = { ...facts, model: models.canonical(facts.model) };
  if (facts.models !== undefined) named.models = facts.models.map((id) => models.canonical(id));
  return named;
}
