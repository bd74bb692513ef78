/**
 * How the local backend starts its notifier. Asked for and unable to start (a mail port asked
 * for is taken, Deno missing), it stops the backend with one sentence rather than run without
 * notifications, where requests would silently wait as not notified.
 */
import { LocalBackendError, oneLine } from "../errors";
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
    throw new LocalBackendError(
      "notifications",
      `Staff notifications could not start (${oneLine(error)}). Free that port or set LOCAL_MAIL_PORT to another one, ` +
        "or set LOCAL_NOTIFICATIONS=off to run without staff notifications.",
    );
  }
}
