// Hears changes of what a process caches per organization (its own provider keys, its presets), made by any process:
// a migration's trigger NOTIFYs the organization's id on the cache's channel, and that organization is dropped from
// this process's cache. While it cannot hear them, the cache is off: every request loads, so nothing deleted is used.
import type { ChannelListener, NotificationSource } from './notification-listener.js';
import { listenOnChannel } from './notification-listener.js';
import type { Logger } from '../logger.js';

export interface OrganizationCacheControl {
  readonly active: boolean;
  setEnabled(enabled: boolean): void;
  invalidate(organizationId: string): void;
  invalidateAll(): void;
}

export async function listenForOrganizationChanges(
  source: NotificationSource,
  cache: OrganizationCacheControl,
  options: { channel: string; logger: Logger },
): Promise<Pick<ChannelListener, 'close'> | undefined> {
  if (!cache.active) return undefined;
  if (source.databaseUrl === undefined && source.pglite === undefined) return undefined;
  cache.setEnabled(false);
  return listenOnChannel(source, {
    channel: options.channel,
    onPayload: (payload) => (payload === '' ? cache.invalidateAll() : cache.invalidate(payload)),
    onListening: (listening) => cache.setEnabled(listening),
    logger: options.logger,
  });
}
