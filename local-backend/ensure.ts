/**
 * "Start the local backend unless one already listens there", for npm start and npm run preview:
 * the port from the site's Supabase URL, the data folder from LOCAL_BACKEND_DATA_DIR.
 */
import { LOCAL_BACKEND_PORT } from "../build-time/local-backend-defaults";
import { isLocalUrl, portOf } from "../build-time/env-files";
import { LocalBackendError } from "./errors";
import { localEnvironment, notificationOptionsFromEnv } from "./notifications/settings";
import { localDataDir, projectRoot } from "./paths";
import { screeningSettingsFromEnv } from "./screening-settings";
import { startLocalBackend, type LocalBackend, type LocalBackendOptions } from "./server";

export interface EnsureLocalBackendOptions extends Pick<LocalBackendOptions, "log"> {
  /** The Supabase URL the site is built for. */
  supabaseUrl: string;
  /** Default: the shell's variables over .env.development and .env. */
  env?: NodeJS.ProcessEnv;
  /** Notify staff of each request (docs/notifications.md), with the settings from .env. */
  notify?: boolean;
}

export type EnsuredLocalBackend =
  /** The URL is not on this machine (a hosted project): nothing to start. */
  | { kind: "remote"; url: string }
  /** Started here; `backend.close()` stops it. */
  | { kind: "started"; url: string; backend: LocalBackend }
  /** Something already listens on the port (another `npm run backend`, or `supabase start`). */
  | { kind: "already-running"; url: string; message: string };

export async function ensureLocalBackend(
  options: EnsureLocalBackendOptions,
): Promise<EnsuredLocalBackend> {
  const url = options.supabaseUrl;
  if (!isLocalUrl(url)) return { kind: "remote", url };
  try {
    const port = portOf(url, LOCAL_BACKEND_PORT);
    const dataDir = localDataDir(options.env);
    const env = options.env ?? localEnvironment();
    const backend = await startLocalBackend({
      port,
      dataDir,
      log: options.log,
      notifications: options.notify
        ? notificationOptionsFromEnv(env, projectRoot(), { dataDir, port })
        : undefined,
      screening: screeningSettingsFromEnv(env),
    });
    return { kind: "started", url: backend.url, backend };
  } catch (error) {
    if (!(error instanceof LocalBackendError && error.kind === "port-in-use")) throw error;
    return {
      kind: "already-running",
      url,
      message: `${error.message} Assuming a backend already runs there (npm run backend or supabase start): the form will send to ${url}.`,
    };
  }
}
