/**
 * The local backend, a stand-in for a Supabase project (docs/local-backend.md): take the data
 * folder's lock (data-lock.ts), listen (gateway.ts), open the database (data-folder.ts), start
 * the staff notifications if asked (notifications/), and stop cleanly.
 */
import crypto from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import type { PGlite } from "@electric-sql/pglite";

import {
  LOCAL_ANON_KEY,
  LOCAL_BACKEND_HOST,
  LOCAL_BACKEND_PORT,
} from "../build-time/local-backend-defaults";
import { acquireDataLock } from "./data-lock";
import { openDataFolder } from "./data-folder";
import { openDatabase, SerialQueue } from "./database";
import { LocalBackendError, oneLine } from "./errors";
import { handle, type Gateway } from "./gateway";
import type { Journal } from "./journal";
import {
  startLocalNotifier,
  type LocalNotificationsOptions,
  type LocalNotifier,
} from "./notifications/notifier";
import { schemaCache } from "./postgrest";
import { applyScreeningSettings, type ScreeningSettings } from "./screening-settings";

export interface LocalBackendOptions {
  /** Default LOCAL_BACKEND_PORT (54321); 0 picks a free port. */
  port?: number;
  /** Kept across restarts; undefined keeps everything in memory. */
  dataDir?: string;
  /** One line per request and per notable event; default: silent. */
  log?: (line: string) => void;
  /** Staff notifications (docs/notifications.md); default: none. */
  notifications?: LocalNotificationsOptions;
  /** The screening's settings (screening-settings.ts); the rest get their defaults. */
  screening?: ScreeningSettings;
  /** Called once another process took the data folder (this backend then stopped); default: log. */
  onDataFolderLost?: (message: string) => void;
}

export interface LocalBackend {
  /** e.g. http://127.0.0.1:54321: what GATSBY_SUPABASE_URL should be. */
  url: string;
  port: number;
  anonKey: string;
  /** This run's service-role key: never published. */
  serviceKey: string;
  /** Absolute data folder, or undefined when in memory. */
  dataDir: string | undefined;
  /** The database itself, as superuser: for tests and tools. */
  db: PGlite;
  /** Runs a task with the database to itself (requests wait meanwhile). */
  run<T>(task: (db: PGlite) => Promise<T>): Promise<T>;
  /** Edge Functions served under /functions/v1/<name>: name → the URL of its process. */
  functions: Map<string, string>;
  notifier: LocalNotifier | undefined;
  /** Stops accepting, finishes requests in flight, closes the database. Idempotent. */
  close(): Promise<void>;
}

async function listen(server: http.Server, port: number, host = LOCAL_BACKEND_HOST): Promise<void> {
  server.listen(port, host);
  await once(server, "listening").catch((error: NodeJS.ErrnoException) => {
    throw error.code === "EADDRINUSE"
      ? new LocalBackendError(
          `Port ${port} is already in use — is the local backend already running? Stop it or set LOCAL_BACKEND_PORT.`,
          "port-in-use",
        )
      : new LocalBackendError(`Cannot listen on ${host}:${port}: ${oneLine(error)}`);
  });
}

export async function startLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const log = options.log ?? (() => {});
  const dataDir = options.dataDir === undefined ? undefined : path.resolve(options.dataDir);
  let shutDown: (closeFiles: boolean) => Promise<void> = async () => {};
  const lost = (): void => {
    const message = `The data folder ${dataDir} was taken over by another process: this backend stopped serving and writing to it.`;
    void shutDown(false).then(() => (options.onDataFolderLost ?? log)(message));
  };
  const lock = dataDir === undefined ? undefined : await acquireDataLock(dataDir, "server", lost);

  let database: PGlite | undefined;
  let journal: Journal | undefined;
  const queue = new SerialQueue();
  const run = <T>(task: (db: PGlite) => Promise<T>): Promise<T> =>
    queue.run(async () => {
      const lostError = new LocalBackendError("The data folder is no longer this backend's");
      if (lock && !lock.isHeld()) throw lostError;
      const result = await task(database!);
      // Checked again before answering: a 201 must mean the row is in files this backend owns.
      if (lock && !lock.isHeld()) throw lostError;
      return result;
    });
  let notifier: LocalNotifier | undefined;
  const gateway: Gateway = {
    rest: { run, columns: new Map(), journal: undefined },
    serviceKey: `local-service-role-${crypto.randomBytes(24).toString("hex")}`,
    functions: new Map(),
    closing: false,
    afterWrite: () => notifier?.afterWrite(),
  };

  // Listening before the slower database start reports a port conflict at once; requests wait.
  let markReady = (): void => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const inflight = new Set<Promise<void>>();
  const server = http.createServer((req, res) => {
    const task = (async () => {
      await ready;
      const started = performance.now();
      const outcome = await handle(gateway, req, res);
      const ms = (performance.now() - started).toFixed(1);
      log(`${req.method} ${req.url?.split("?")[0]} ${outcome} ${ms}ms`);
    })().catch((error: unknown) => {
      log(`Internal error: ${oneLine(error)}`);
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { "Content-Type": "application/json; charset=utf-8" });
      res.end(
        JSON.stringify({ message: `Internal error in the local backend: ${oneLine(error)}` }),
      );
    });
    inflight.add(task);
    void task.finally(() => inflight.delete(task));
  });
  server.keepAliveTimeout = 5_000;
  const stopListening = async (): Promise<void> => {
    gateway.closing = true;
    markReady();
    const stopped = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    while (inflight.size > 0) await Promise.allSettled([...inflight]);
    server.closeAllConnections();
    await stopped;
  };

  try {
    await listen(server, options.port ?? LOCAL_BACKEND_PORT);
    const port = (server.address() as AddressInfo).port;
    const url = `http://${LOCAL_BACKEND_HOST}:${port}`;
    if (dataDir === undefined) database = (await openDatabase({ log })).db;
    else ({ db: database, journal } = await openDataFolder(dataDir, log));
    await applyScreeningSettings(database, options.screening ?? {});
    gateway.rest = { run, columns: await schemaCache(database), journal };
    lock?.announce(url, gateway.serviceKey);
    const backend: LocalBackend = {
      url,
      port,
      anonKey: LOCAL_ANON_KEY,
      serviceKey: gateway.serviceKey,
      dataDir,
      db: database,
      run,
      functions: gateway.functions,
      notifier: undefined,
      close: () => shutDown(true),
    };
    if (options.notifications)
      backend.notifier = notifier = await startLocalNotifier(backend, options.notifications, log);
    markReady();

    let closed: Promise<void> | undefined;
    shutDown = (closeFiles) =>
      (closed ??= (async () => {
        gateway.closing = true;
        // The function finishes its calls first: it reaches the database through this listener.
        await notifier?.close();
        await stopListening();
        await queue.idle();
        journal?.close();
        if (!closeFiles) return;
        await database!.close();
        await lock?.release();
      })());
    return backend;
  } catch (error) {
    await stopListening();
    journal?.close();
    await database?.close().catch(() => {});
    await lock?.release();
    throw error;
  }
}
