// What one generation costs at the serving model's prices, from the usage its meter holds.
import { costNanos } from '../billing/pricing.js';
import type { CatalogEntry } from '../catalog/types.js';
import type { GenerationMeter } from './generation-meter.js';

export function generationCostNanos(meter: GenerationMeter, entry: CatalogEntry): bigint {
  // A request that failed before the upstream generated anything costs nothing.
  if (meter.outcome !== 'success' && !meter.usage && meter.timeToFirstTokenMs() === undefined) return 0n;
  return costNanos(entry, meter.finalUsage());
}
