import { addUsageTotals } from './add-usage-totals.js';
import type { LivingFunction } from './living-function.js';
import { settleGenerations } from './settle-generations.js';

/** Every function with a living definition, installed in this order after the migrations. */
export const LIVING_FUNCTIONS: readonly LivingFunction[] = [addUsageTotals, settleGenerations];
