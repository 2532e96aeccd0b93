// Every back door on the translated lane takes the client's custom, namespaced and hosted tools the same way: the
// request is lowered for the vendor before its adapter converts it, and the vendor's calls are restored after its
// adapter translated them (lower-tools.ts, restore-tool-calls.ts). The restore side needs the client's declared tools,
// which the pipeline passes in AdapterContext.tools; the names are recomputed from them (deterministic, cheap).
import type { AdapterContext, ProviderAdapter } from '../adapter.js';
import { lowerTools, toolNameTable, toolWarnings, type ToolPolicy } from './lower-tools.js';
import { restoreResult, restoringTranslator } from './restore-tool-calls.js';

export function withToolLowering(
  adapter: ProviderAdapter,
  policyOf: (ctx: AdapterContext) => ToolPolicy,
): ProviderAdapter {
  const table = (ctx: AdapterContext) => toolNameTable(ctx.tools ?? [], policyOf(ctx));
  return {
    ...adapter,
    buildRequest: (request, ctx) => adapter.buildRequest(lowerTools(request, policyOf(ctx)).request, ctx),
    parseCompletion: (body, ctx) => restoreResult(adapter.parseCompletion(body, ctx), table(ctx)),
    createStreamTranslator: (ctx) => restoringTranslator(adapter.createStreamTranslator(ctx), table(ctx)),
    warnings: (request, ctx) => toolWarnings(request.tools, policyOf(ctx)),
  };
}
