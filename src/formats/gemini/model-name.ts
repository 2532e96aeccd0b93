// Gemini clients name models the Google way: `gemini-3.5-flash` (Gemini CLI, the Gen AI SDKs), sometimes as the
// resource `models/gemini-3.5-flash`. A name without a provider prefix is the catalog's `google/` model of that name;
// gateway ids (`anthropic/claude-sonnet-5-5`, `pass/...`) pass unchanged. The path's model arrives with its `/`
// encoded (model-path.ts), and is decoded here.
import type { Catalog } from '../../catalog/catalog.js';
import { GatewayError } from '../../core/gateway-error.js';

export function geminiGatewayModelId(pathModel: string, catalog: Pick<Catalog, 'get'>): string {
  let name: string;
  try {
    name = decodeURIComponent(pathModel);
  } catch {
    throw new GatewayError(400, `Invalid model in the path: "${pathModel}" is not valid percent-encoding`, {
      field: 'model',
      reason: 'invalid_model_name',
    });
  }
  if (name.startsWith('models/')) name = name.slice('models/'.length);
  if (name === '')
    throw new GatewayError(400, 'Invalid model in the path: it is empty', {
      field: 'model',
      reason: 'invalid_model_name',
    });
  if (name.includes('/')) return name;
  // A bare name is a Google model's, else a name the catalog or the organization gives a model (an alias); unknown
  // either way: the google/ id makes the 404 name the form the gateway expects.
  const google = `google/${name}`;
  return catalog.get(google) || !catalog.get(name) ? google : name;
}

/** The name a Gemini client uses for a gateway model: a Google model's bare name, any other model's id. */
export function geminiModelName(gatewayId: string): string {
  return gatewayId.startsWith('google/') ? gatewayId.slice('google/'.length) : gatewayId;
}
