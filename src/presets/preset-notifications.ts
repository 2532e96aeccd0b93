// Hears changes of organizations' presets made by any process (migration 0021's trigger NOTIFYs the organization's
// id) and drops that organization from this process's preset cache (preset-cache.ts).
import type { ChannelListener, NotificationSource } from '../db/notification-listener.js';
import { listenForOrganizationChanges } from '../db/organization-cache-notifications.js';
import type { Logger } from '../logger.js';
import type { PresetCache } from './preset-cache.js';

/** Must match the channel in migrations/0021_presets.ts. */
export const PRESET_CHANNEL = 'modelgate_presets';

export function listenForPresetChanges(
  source: NotificationSource,
  cache: PresetCache,
  logger: Logger,
): Promise<Pick<ChannelListener, 'close'> | undefined> {
  return listenForOrganizationChanges(source, cache, { channel: PRESET_CHANNEL, logger });
}
