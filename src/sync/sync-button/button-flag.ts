import type { PlatformClient } from '../../platform/index.ts';
import { BUTTON_OBJECTS, type ButtonObjectType } from './window.ts';

/**
 * docs/platform.md G28: the sync-button flow runs only while the connection's flag for the object
 * type is on. Read fresh for each request (one call per press), so turning it off takes effect
 * at once.
 */
export async function syncButtonEnabled(
  platform: Pick<PlatformClient, 'connection'>,
  connectionId: string,
  objectType: ButtonObjectType,
): Promise<boolean> {
  const connection = await platform.connection.get(connectionId);
  return connection?.settings[BUTTON_OBJECTS[objectType].flag] === true;
}
