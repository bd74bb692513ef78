/**
 * The embedded local backend: a development stand-in for Supabase's REST API, for the one
 * thing this site does with it — `supabase.from('contacts').insert(row)` with the anon key.
 *
 * This file is its life cycle: take the data folder's lock, bind the port, open the database
 * (PGlite, with supabase/migrations applied), serve, and close cleanly. What each request gets
 * is decided in gateway.ts (CORS, keys, routing), insert.ts (the insert) and admin.ts.
 * See docs/local-backend.md for the status/code table and the commands.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import type { PGlite } from "@electric-sql/pglite";

import {
  LOCAL_ANON_KEY,
  LOCAL_BACKEND_HOST,
  LOCAL_BACKEND_PORT,
} from "../build-time/local-backend-defaults";
import { handleAdmin } from "./admin";
import { anonClaims, loadColumns, type BackendContext } from "./context";
import { acquireDataLock, newAdminToken, type DataLock } from "./data-lock";
import { openDataFolder } from "./data-folder";
import { openDatabase, SerialQueue } from "./database";
import { LocalBackendError, oneLine } from "./errors";
import { handleRest } from "./gateway";
import {
  startBackendNotifier,
  type LocalNotificationsOptions,
  type LocalNotifier,
} from "./notifications/backend-hook";
import { GATEWAY_NO_ROUTE, pgrstError } from "./postgrest";
import { errorReply, sendReply, type Reply } from "./reply";
import { applyScreeningSettings, type ScreeningSettings } from "./screening-settings";

export interface LocalBackendOptions {
  /** TCP port; default LOCAL_BACKEND_PORT (54321). 0 picks a free port. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Data folder (kept across restarts); undefined keeps everything in memory. */
  dataDir?: string;
  /** The only API key accepted; default LOCAL_ANON_KEY. */
  anonKey?: string;
  /** Default: supabase/migrations of the project. */
  migrationsDir?: string;
  /** One line per request and per notable event; default: silent. */
  log?: (line: string) => void;
  /** Largest request body accepted; default 1 MiB. */
  maxBodyBytes?: number;
  /** Staff notifications (docs/notifications.md); default: none. */
  notifications?: LocalNotificationsOptions;
  /** The screening's budgets, windows and intervals (screening-settings.ts); the rest get their defaults. */
  screening?: ScreeningSettings;
  /**
   * Called if another process takes the data folder (its lock deleted by hand and taken):
   * the backend has then stopped serving and writing, without touching the files again.
   * Default: log the message.
   */
  onDataFolderLost?: (message: string) => void;
}

export interface LocalBackend {
  /** e.g. http://127.0.0.1:54321 — what GATSBY_SUPABASE_URL should be. */
  url: string;
  port: number;
  host: string;
  anonKey: string;
  /** Absolute data folder, or undefined when in memory. */
  dataDir: string | undefined;
  /** The database itself, as superuser (bypasses grants and RLS): for tests and tools. */
  db: PGlite;
  /** Staff notifications, when asked for and started. */
  notifier: LocalNotifier | undefined;
  /** Stops accepting, finishes requests in flight, closes the database. Idempotent. */
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** How often a file-backed backend checks that its lock file is still its own. */
const LOCK_CHECK_MS = 250;

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off("listening", onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") {
      throw new LocalBackendError(
        "port-in-use",
        `Port ${port} is already in use — is the local backend already running? Stop it or set LOCAL_BACKEND_PORT.`,
      );
    }
    throw new LocalBackendError(
      "listen-failed",
      `Cannot listen on ${host}:${port}: ${oneLine(error)}`,
    );
  });
}

async function openContext(
  options: LocalBackendOptions,
  dataDir: string | undefined,
  lock: DataLock | undefined,
  log: (line: string) => void,
): Promise<BackendContext> {
  const { db, journal } =
    dataDir === undefined
      ? {
          ...(await openDatabase({ migrationsDir: options.migrationsDir, log })),
          journal: undefined,
        }
      : await openDataFolder(dataDir, options.migrationsDir, log);
  try {
    await applyScreeningSettings(db, options.screening ?? {});
  } catch (error) {
    journal?.close();
    await db.close().catch(() => {});
    throw error;
  }
  try {
    const anonKey = options.anonKey ?? LOCAL_ANON_KEY;
    return {
      database: db,
      queue: new SerialQueue(),
      columns: await loadColumns(db),
      anonKey,
      claims: anonClaims(anonKey),
      adminToken: newAdminToken(),
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      journal,
      holdsDataFolder: () => lock?.isHeld() ?? true,
    };
  } catch (error) {
    journal?.close();
    await db.close().catch(() => {});
    throw new LocalBackendError(
      "database",
      `Could not prepare the local database: ${oneLine(error)}`,
    );
  }
}

export async function startLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const host = options.host ?? LOCAL_BACKEND_HOST;
  const log = options.log ?? (() => {});
  const dataDir = options.dataDir === undefined ? undefined : path.resolve(options.dataDir);

  // 1. The data folder (cheap checks first, so failures are quick).
  const lock: DataLock | undefined =
    dataDir === undefined ? undefined : await acquireDataLock(dataDir, "server");

  // 2. The port: bind before the (slower) database start so a conflict is reported at once.
  //    Requests that arrive meanwhile wait for the database.
  let context: BackendContext | undefined;
  let notifier: LocalNotifier | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  let closing = false;
  const inflight = new Set<Promise<void>>();

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    await ready;
    const started = process.hrtime.bigint();
    const url = new URL(req.url ?? "/", "http://localhost");
    let reply: Reply;
    if (closing || !context) {
      req.resume();
      reply = { status: 503, json: { message: "The local backend is shutting down" } };
    } else if (url.pathname === "/rest/v1" || url.pathname.startsWith("/rest/v1/")) {
      reply = await handleRest(context, req, url);
    } else if (url.pathname.startsWith("/local-admin/")) {
      reply = await handleAdmin(context, req, url);
    } else {
      req.resume();
      reply = errorReply(GATEWAY_NO_ROUTE);
    }
    sendReply(res, reply, closing);
    // After the reply: the visitor never waits for the notification.
    if (reply.status >= 200 && reply.status < 300 && req.method === "POST") notifier?.afterWrite();
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const code = (reply.json as { code?: string } | undefined)?.code;
    log(
      `${req.method} ${url.pathname} ${reply.status}${code ? ` ${code}` : ""} ${ms.toFixed(1)}ms`,
    );
  }

  const server = http.createServer((req, res) => {
    const task = handle(req, res).catch((error: unknown) => {
      log(`Internal error: ${oneLine(error)}`);
      if (res.headersSent) res.destroy();
      else
        sendReply(
          res,
          errorReply(
            pgrstError(500, "PGRSTX00", "Internal error in the local backend", oneLine(error)),
          ),
          closing,
        );
    });
    inflight.add(task);
    void task.finally(() => inflight.delete(task));
  });
  server.keepAliveTimeout = 5_000;

  try {
    await listen(server, options.port ?? LOCAL_BACKEND_PORT, host);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  // 3. The database.
  try {
    context = await openContext(options, dataDir, lock, log);
  } catch (error) {
    closing = true;
    markReady();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    lock?.release();
    throw error;
  }
  const { database, queue, anonKey, journal } = context;
  lock?.update({ url, adminToken: context.adminToken });
  // The notifier writes delivery state: like the inserts, only while the data folder is this backend's.
  const { holdsDataFolder } = context;
  const ownDatabase = <T>(task: (db: PGlite) => Promise<T>): Promise<T> =>
    queue.run(() =>
      holdsDataFolder()
        ? task(database)
        : Promise.reject(new Error("The data folder is no longer this backend's")),
    );
  try {
    notifier = await startBackendNotifier(ownDatabase, options.notifications, log);
  } catch (error) {
    closing = true;
    markReady();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    journal?.close();
    await database.close().catch(() => {});
    lock?.release();
    throw error;
  }
  markReady();

  let closed: Promise<void> | undefined;
  /** Stops serving; `closeFiles` false leaves the database and lock alone (they are another process's now). */
  const shutDown = (closeFiles: boolean): Promise<void> => {
    closed ??= (async () => {
      closing = true;
      clearInterval(lockWatch);
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
      server.closeAllConnections();
      await stopped;
      await notifier?.close();
      await queue.idle();
      journal?.close();
      if (!closeFiles) return;
      await database.close();
      lock?.release();
    })();
    return closed;
  };
  const lockWatch = setInterval(() => {
    if (!lock || closing || lock.isHeld()) return;
    const message =
      `The data folder ${dataDir} was taken over by another process (its server.lock was removed): ` +
      `this backend stopped serving and writing to it.`;
    void shutDown(false).then(() => (options.onDataFolderLost ?? log)(message));
  }, LOCK_CHECK_MS);
  lockWatch.unref();
  const close = (): Promise<void> => shutDown(true);

  return { url, port, host, anonKey, dataDir, db: database, notifier, close };
}
