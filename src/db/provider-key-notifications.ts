// Hears changes of organizations' own provider keys made by any process (migration 0019's trigger NOTIFYs the
// organization's id) and drops that organization from this process's cache (routing/provider-key-cache.ts). While it
// cannot hear them, the cache is off: every request loads the keys, so a deleted key is never used.
import type { ChannelListener, NotificationSource } from './notification-listener.js';
import { listenForOrganizationChanges, type OrganizationCacheControl } from './organization-cache-notifications.js';
import type { Logger } from '../logger.js';

/** Must match the channel in migrations/0019_provider_keys.ts. */
export const PROVIDER_KEY_CHANNEL = 'modelgate_provider_keys';

export type ProviderKeyCacheControl = OrganizationCacheControl;

export async function listenForProviderKeyChanges(
  source: NotificationSource,
  cache: ProviderKeyCacheControl,
  logger: Logger,
): Promise<Pick<ChannelListener, 'close'> | undefined> {
  return listenForOrganizationChanges(source, cache, { channel: PROVIDER_KEY_CHANNEL, logger });
}
