/**
 * How the local backend starts its notifier: a failure to start (the catcher's port taken,
 * Deno missing) is one warning, never a backend that cannot take requests. The requests then
 * stay pending, and `npm run requests` shows them un-notified.
 */
import { oneLine } from "../errors";
import { startLocalNotifier, type LocalNotificationsOptions, type LocalNotifier } from "./notifier";
import type { DatabaseRunner } from "./service-api";

export type { LocalNotificationsOptions, LocalNotifier } from "./notifier";

export async function startBackendNotifier(
  run: DatabaseRunner,
  options: LocalNotificationsOptions | undefined,
  log: (line: string) => void,
): Promise<LocalNotifier | undefined> {
  if (!options) return undefined;
  try {
    const notifier = await startLocalNotifier(run, { ...options, log: options.log ?? log });
    log(notifier.summary);
    return notifier;
  } catch (error) {
    log(`Warning: staff notifications are off for this run (${oneLine(error)}); requests are stored and shown as not notified.`);
    return undefined;
  }
}
