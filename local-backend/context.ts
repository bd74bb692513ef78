/**
 * What every request handler needs from the running backend: the database (one connection,
 * so a queue in front of it), the table's columns, and the keys it accepts.
 */
import type http from "node:http";

import type { PGlite } from "@electric-sql/pglite";

import { decodeJwt } from "../build-time/supabase-keys";
import type { SerialQueue } from "./database";
import type { Journal } from "./journal";
import { fromDatabaseError, isDatabaseError } from "./postgrest";
import { errorReply, type Reply } from "./reply";

export interface BackendContext {
  database: PGlite;
  queue: SerialQueue;
  /** Column name → SQL type of public.contacts (PostgREST's "schema cache"). */
  columns: Map<string, string>;
  anonKey: string;
  /** `request.jwt.claims` for the anon key, as PostgREST sets them. */
  claims: string;
  /** Bearer token of the loopback-only admin endpoint, written to the lock file. */
  adminToken: string;
  maxBodyBytes: number;
  /** The request journal of the data folder; undefined in memory. */
  journal: Journal | undefined;
  /** False once another process holds the data folder: nothing may be written then. */
  holdsDataFolder(): boolean;
}

/** Thrown instead of writing when the data folder's lock is no longer this backend's. */
class DataFolderLostError extends Error {}

/** The one table this stand-in serves. */
export const TABLE = "contacts";

export function anonClaims(anonKey: string): string {
  return JSON.stringify({ ...decodeJwt(anonKey)?.payload, role: "anon" });
}

/** Reads the table's columns after the migrations. */
export async function loadColumns(db: PGlite): Promise<Map<string, string>> {
  const result = await db.query<{ name: string; type: string }>(
    `select a.attname as name, pg_catalog.format_type(a.atttypid, a.atttypmod) as type
       from pg_catalog.pg_attribute a
      where a.attrelid = 'public.contacts'::regclass and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
  );
  return new Map(result.rows.map((row) => [row.name, row.type]));
}

/**
 * The header hosted Supabase's gateway (Cloudflare) names the client by: the address that
 * connected, replacing whatever a client sent under that name. X-Forwarded-For passes through
 * as the client wrote it there, so the database never reads it (20261124110000_request_screening.sql).
 */
export const CLIENT_ADDRESS_HEADER = "cf-connecting-ip";

/** `request.headers` as PostgREST passes them, with the client address set from the socket. */
export function requestHeaders(req: http.IncomingMessage): string {
  const remote = req.socket.remoteAddress ?? "";
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
  const address = remote.startsWith("::ffff:") && remote.includes(".") ? remote.slice(7) : remote;
  return JSON.stringify({ ...req.headers, [CLIENT_ADDRESS_HEADER]: address });
}

/** Runs `task` in its own transaction as role `anon`, with the settings PostgREST gives a request. */
export function runAsAnon<T>(
  context: BackendContext,
  req: http.IncomingMessage,
  requestPath: string,
  task: (tx: Pick<PGlite, "query">) => Promise<T>,
): Promise<T> {
  return context.queue.run(async () => {
    if (!context.holdsDataFolder())
      throw new DataFolderLostError("The data folder is no longer this backend's");
    const result = await context.database.transaction(async (tx) => {
      await tx.query(
        `select set_config('role', 'anon', true),
                set_config('request.jwt.claims', $1, true),
                set_config('request.method', $2, true),
                set_config('request.path', $3, true),
                set_config('request.headers', $4, true)`,
        [context.claims, req.method ?? "", requestPath, requestHeaders(req)],
      );
      return task(tx);
    });
    // Checked again before answering: a 201 must mean the row is in files this backend owns.
    if (!context.holdsDataFolder())
      throw new DataFolderLostError("The data folder is no longer this backend's");
    return result;
  });
}

/** A database error as PostgREST answers it; anything else is rethrown (→ 500). */
export function databaseErrorReply(error: unknown): Reply {
  if (isDatabaseError(error)) return errorReply(fromDatabaseError(error));
  if (error instanceof DataFolderLostError)
    return { status: 503, json: { message: error.message } };
  throw error;
}
