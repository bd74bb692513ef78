import { decodeJwt } from "../build-time/supabase-keys";
/**
 * The embedded local backend: a development stand-in for Supabase's REST API, for the one
 * thing this site does with it — `supabase.from('contacts').insert(row)` with the anon key.
 *
 * It is NOT a general PostgREST. It answers `POST /rest/v1/contacts` the way PostgREST
 * behind Supabase's gateway does (JSON object or array, `?columns=`, `Prefer`,
 * 201 with an empty body, `{code, message, details, hint}` errors with PostgREST's status
 * codes), CORS preflights, and refuses everything else with the error PostgREST would give.
 * The insert runs in a real PostgreSQL (PGlite, compiled to WebAssembly) as role `anon`
 * (`set local role` plus `request.jwt.claims`, like PostgREST), so grants, row-level
 * security, CHECK constraints and triggers are the ones from supabase/migrations.
 *
 * PGlite is single-connection: requests are queued, each in its own transaction.
 * See local-backend/README.md for the status/code table and the commands.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

import type { PGlite } from "@electric-sql/pglite";

import { LOCAL_ANON_KEY, LOCAL_BACKEND_HOST, LOCAL_BACKEND_PORT } from "../build-time/local-backend-defaults";
import { acquireDataLock, newAdminToken, type DataLock } from "./data-lock";
import { openDatabase, readRequests, SerialQueue } from "./database";
import { LocalBackendError, oneLine } from "./errors";
import {
  fromDatabaseError,
  GATEWAY_INVALID_API_KEY,
  GATEWAY_NO_API_KEY,
  GATEWAY_NO_ROUTE,
  GATEWAY_TOO_LARGE,
  isDatabaseError,
  parseColumnsParam,
  pgrstError,
  quoteIdent,
  type ErrorReply,
} from "./postgrest";

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
  /** Stops accepting, finishes requests in flight, closes the database. Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The one table this stand-in serves. */
const TABLE = "contacts";
const EXPOSED_SCHEMAS = ["public", "graphql_public"];

const CORS_ALLOW_HEADERS = [
  "apikey",
  "authorization",
  "content-type",
  "prefer",
  "x-client-info",
  "accept-profile",
  "content-profile",
  "x-supabase-api-version",
  "accept",
  "range",
  "x-retry-count",
];
const CORS_EXPOSE_HEADERS =
  "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit";

type Headers = Record<string, string>;

interface Reply {
  status: number;
  headers?: Headers;
  /** JSON-serialisable body; undefined = empty body. */
  json?: unknown;
}

function jwtClaims(key: string): string {
  return JSON.stringify({ ...decodeJwt(key)?.payload, role: "anon" });
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

function isLoopback(address: string | undefined): boolean {
  return (
    address === "127.0.0.1" ||
    address === "::1" ||
    address === "::ffff:127.0.0.1" ||
    (address?.startsWith("127.") ?? false)
  );
}

function errorReply(error: ErrorReply): Reply {
  const headers: Headers = { ...(error.headers ?? {}) };
  const code = (error.body as { code?: string }).code;
  if (code) headers["Proxy-Status"] = `PostgREST; error=${code}`;
  return { status: error.status, headers, json: error.body };
}

interface BodyResult {
  body: Buffer;
  tooLarge: boolean;
  aborted: boolean;
}

/** Reads the body; past the limit it keeps draining (so the client sees the 413) but stores nothing. */
function readBody(req: http.IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    let done = false;
    const finish = (aborted: boolean): void => {
      if (done) return;
      done = true;
      resolve({ body: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), tooLarge, aborted });
    };
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        tooLarge = true;
        chunks.length = 0;
        // Do not drain forever: past 16× the limit, drop the connection.
        if (size > limit * 16) {
          req.destroy();
          finish(true);
        }
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => finish(false));
    req.on("error", () => finish(true));
    req.on("close", () => finish(!req.complete));
  });
}

interface Prefer {
  representation: boolean;
  countExact: boolean;
  applied: string[];
}

function parsePrefer(header: string | string[] | undefined): Prefer {
  const values = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
  const prefer: Prefer = { representation: false, countExact: false, applied: [] };
  for (const value of values) {
    if (value === "return=representation") {
      prefer.representation = true;
      prefer.applied.push(value);
    } else if (value === "return=minimal" || value === "return=headers-only") {
      prefer.applied.push(value);
    } else if (value === "count=exact") {
      prefer.countExact = true;
      prefer.applied.push(value);
    }
  }
  return prefer;
}

/** Column name → SQL type, read from the database after the migrations (PostgREST's "schema cache"). */
async function loadColumns(db: PGlite): Promise<Map<string, string>> {
  const result = await db.query<{ name: string; type: string }>(
    `select a.attname as name, pg_catalog.format_type(a.atttypid, a.atttypmod) as type
       from pg_catalog.pg_attribute a
      where a.attrelid = 'public.contacts'::regclass and a.attnum > 0 and not a.attisdropped
      order by a.attnum`,
  );
  return new Map(result.rows.map((row) => [row.name, row.type]));
}

export async function startLocalBackend(options: LocalBackendOptions = {}): Promise<LocalBackend> {
  const host = options.host ?? LOCAL_BACKEND_HOST;
  const requestedPort = options.port ?? LOCAL_BACKEND_PORT;
  const anonKey = options.anonKey ?? LOCAL_ANON_KEY;
  const log = options.log ?? (() => {});
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const dataDir = options.dataDir === undefined ? undefined : path.resolve(options.dataDir);
  const claims = jwtClaims(anonKey);
  const queue = new SerialQueue();
  const adminToken = newAdminToken();

  // 1. The data folder (cheap checks first, so failures are quick).
  const lock: DataLock | undefined = dataDir === undefined ? undefined : acquireDataLock(dataDir, "server");

  // 2. The port: bind before the (slower) database start so a conflict is reported at once.
  let db: PGlite | undefined;
  let columns = new Map<string, string>();
  let closing = false;
  let resolveReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });
  const inflight = new Set<Promise<void>>();

  const server = http.createServer((req, res) => {
    const task = (async () => {
      await ready;
      await handle(req, res);
    })().catch((error: unknown) => {
      log(`Internal error: ${oneLine(error)}`);
      if (!res.headersSent) {
        send(res, errorReply(pgrstError(500, "PGRSTX00", "Internal error in the local backend", oneLine(error))));
      } else {
        res.destroy();
      }
    });
    inflight.add(task);
    void task.finally(() => inflight.delete(task));
  });
  server.keepAliveTimeout = 5_000;

  try {
    await new Promise<void>((resolve, reject) => {
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
      server.listen(requestedPort, host);
    });
  } catch (error) {
    lock?.release();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") {
      throw new LocalBackendError(
        "port-in-use",
        `Port ${requestedPort} is already in use — is the local backend already running? Stop it or set LOCAL_BACKEND_PORT.`,
      );
    }
    throw new LocalBackendError("listen-failed", `Cannot listen on ${host}:${requestedPort}: ${oneLine(error)}`);
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

  // 3. The database.
  try {
    const opened = await openDatabase({ dataDir, migrationsDir: options.migrationsDir, log });
    db = opened.db;
    columns = await loadColumns(db);
  } catch (error) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    if (db) await db.close().catch(() => {});
    lock?.release();
    if (error instanceof LocalBackendError) throw error;
    throw new LocalBackendError("database", `Could not prepare the local database: ${oneLine(error)}`);
  }
  const database: PGlite = db;
  lock?.update({ url, adminToken });
  resolveReady();

  function send(res: http.ServerResponse, reply: Reply): void {
    const body = reply.json === undefined ? undefined : Buffer.from(JSON.stringify(reply.json), "utf8");
    const headers: Headers = { ...(reply.headers ?? {}) };
    if (body) headers["Content-Type"] = "application/json; charset=utf-8";
    headers["Content-Length"] = String(body?.length ?? 0);
    if (closing) headers["Connection"] = "close";
    res.writeHead(reply.status, headers);
    res.end(res.req.method === "HEAD" ? undefined : body);
  }

  async function asAnon<T>(task: (tx: Pick<PGlite, "query">) => Promise<T>, req: http.IncomingMessage, requestPath: string): Promise<T> {
    return queue.run(() =>
      database.transaction(async (tx) => {
        await tx.query(
          `select set_config('role', 'anon', true),
                  set_config('request.jwt.claims', $1, true),
                  set_config('request.method', $2, true),
                  set_config('request.path', $3, true),
                  set_config('request.headers', $4, true)`,
          [claims, req.method ?? "", requestPath, JSON.stringify(req.headers)],
        );
        return task(tx);
      }),
    );
  }

  async function databaseReply(error: unknown): Promise<Reply> {
    if (isDatabaseError(error)) return errorReply(fromDatabaseError(error, false));
    throw error;
  }

  async function insert(req: http.IncomingMessage, url: URL, requestPath: string): Promise<Reply> {
    const declared = Number(req.headers["content-length"] ?? "0");
    const { body, tooLarge, aborted } = await readBody(req, maxBodyBytes);
    if (aborted && !tooLarge) return { status: 400 };
    if (tooLarge || declared > maxBodyBytes) return errorReply(GATEWAY_TOO_LARGE);

    const mediaType = (req.headers["content-type"] ?? "application/json").split(";")[0]!.trim().toLowerCase();
    const columnsParam = url.searchParams.get("columns");
    const prefer = parsePrefer(req.headers["prefer"]);

    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    } catch {
      return errorReply(pgrstError(400, "PGRST102", "Empty or invalid json"));
    }

    let keys: string[];
    let payload = text;
    if (mediaType === "application/json") {
      if (columnsParam !== null) {
        const parsed = parseColumnsParam(columnsParam);
        if (!parsed) {
          return errorReply(pgrstError(400, "PGRST100", `"failed to parse columns parameter (${columnsParam})"`));
        }
        keys = [...new Set(parsed)];
      } else {
        let value: unknown;
        try {
          if (text.trim() === "") throw new Error("empty");
          value = JSON.parse(text);
        } catch {
          return errorReply(pgrstError(400, "PGRST102", "Empty or invalid json"));
        }
        if (Array.isArray(value)) {
          const first: unknown = value[0];
          if (value.length === 0) {
            keys = [];
          } else if (typeof first === "object" && first !== null && !Array.isArray(first)) {
            const canonical = Object.keys(first).sort().join("\u0000");
            const uniform = value.every(
              (item) =>
                typeof item === "object" &&
                item !== null &&
                !Array.isArray(item) &&
                Object.keys(item).sort().join("\u0000") === canonical,
            );
            if (!uniform) return errorReply(pgrstError(400, "PGRST102", "All object keys must match"));
            keys = Object.keys(first);
          } else {
            return errorReply(pgrstError(400, "PGRST102", "All object keys must match"));
          }
        } else if (typeof value === "object" && value !== null) {
          keys = Object.keys(value);
        } else {
          // PostgREST treats a scalar body as an empty array: nothing to insert.
          keys = [];
          payload = "[]";
        }
      }
    } else if (mediaType === "application/x-www-form-urlencoded") {
      const form: Record<string, string> = {};
      for (const [key, value] of new URLSearchParams(text)) form[key] = value;
      keys = Object.keys(form);
      payload = JSON.stringify(form);
    } else {
      return errorReply(pgrstError(400, "PGRST102", `Content-Type not acceptable: ${mediaType}`));
    }

    keys = [...keys].sort();
    const unknown = keys.find((key) => !columns.has(key));
    if (unknown !== undefined) {
      return errorReply(
        pgrstError(400, "PGRST204", `Could not find the '${unknown}' column of '${TABLE}' in the schema cache`),
      );
    }

    // The statement PostgREST builds for an insert: the body goes in as one json parameter.
    const isObject = payload.trimStart().startsWith("{");
    const list = keys.map(quoteIdent).join(", ");
    const typed = keys.map((key) => `${quoteIdent(key)} ${columns.get(key)}`).join(", ");
    const source = `from (select $1::json as json_data) pgrst_payload, lateral (select ${list} from ${
      isObject ? "json_to_record" : "json_to_recordset"
    }(pgrst_payload.json_data) as _(${typed})) pgrst_body`;
    const rowsSource = isObject
      ? `from (select $1::json as json_data) pgrst_payload, lateral (select from (values (1)) _) pgrst_body`
      : `from (select $1::json as json_data) pgrst_payload, lateral (select from json_array_elements(pgrst_payload.json_data) _) pgrst_body`;
    const returning = prefer.representation
      ? ` returning ${[...columns.keys()].map(quoteIdent).join(", ")}`
      : "";
    const sql =
      keys.length > 0
        ? `insert into public.${TABLE} (${list}) select ${list} ${source}${returning}`
        : `insert into public.${TABLE} select ${rowsSource}${returning}`;

    let result: { affectedRows?: number; rows: unknown[] };
    try {
      result = await asAnon((tx) => tx.query(sql, [payload]), req, requestPath);
    } catch (error) {
      return databaseReply(error);
    }
    const count = result.affectedRows ?? 0;
    const headers: Headers = { "Content-Range": prefer.countExact ? `*/${count}` : "*/*" };
    if (prefer.applied.length > 0) headers["Preference-Applied"] = prefer.applied.join(", ");
    return prefer.representation ? { status: 201, headers, json: result.rows } : { status: 201, headers };
  }

  /** Methods this stand-in does not implement: answer what the grants say, as PostgREST would. */
  async function probe(req: http.IncomingMessage, method: string, requestPath: string): Promise<Reply> {
    const statement =
      method === "PATCH"
        ? `update public.${TABLE} set "name" = "name" where false`
        : method === "DELETE"
          ? `delete from public.${TABLE} where false`
          : `select 1 from public.${TABLE} limit 0`;
    try {
      await asAnon((tx) => tx.query(statement), req, requestPath);
    } catch (error) {
      return databaseReply(error);
    }
    return errorReply(
      pgrstError(405, "PGRST117", `Unsupported HTTP method: ${method}`, null, "The local backend only implements inserts (POST)."),
    );
  }

  async function rest(req: http.IncomingMessage, url: URL): Promise<Reply> {
    const method = (req.method ?? "GET").toUpperCase();
    const origin = req.headers.origin;
    const cors: Headers = {
      "Access-Control-Allow-Origin": origin ?? "*",
      "Access-Control-Expose-Headers": CORS_EXPOSE_HEADERS,
      Vary: "Origin",
    };
    const withCors = (reply: Reply): Reply => ({ ...reply, headers: { ...cors, ...(reply.headers ?? {}) } });

    if (method === "OPTIONS") {
      const requested = String(req.headers["access-control-request-headers"] ?? "")
        .split(",")
        .map((header) => header.trim().toLowerCase())
        .filter(Boolean);
      return withCors({
        status: 200,
        headers: {
          "Access-Control-Allow-Methods": "GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD",
          "Access-Control-Allow-Headers": [...new Set([...CORS_ALLOW_HEADERS, ...requested])].join(", "),
          "Access-Control-Max-Age": "86400",
        },
      });
    }

    // The gateway: an API key is required, and only the anon key is known here.
    const apikey = (req.headers["apikey"] as string | undefined) ?? url.searchParams.get("apikey") ?? undefined;
    if (!apikey) return withCors(errorReply(GATEWAY_NO_API_KEY));
    if (!safeEqual(apikey, anonKey)) return withCors(errorReply(GATEWAY_INVALID_API_KEY));
    const authorization = req.headers["authorization"];
    if (authorization !== undefined) {
      const bearer = /^bearer\s+(.+)$/i.exec(authorization.trim());
      if (!bearer || !safeEqual(bearer[1]!, anonKey)) {
        return withCors(
          errorReply(
            pgrstError(
              401,
              "PGRST301",
              "JWT does not match the anon key",
              null,
              "The local backend accepts only its anon key, as apikey and (optionally) as Authorization: Bearer.",
            ),
          ),
        );
      }
    }

    const segments = url.pathname.replace(/^\/rest\/v1\/?/, "").split("/").filter(Boolean);
    if (segments.length === 0) {
      return withCors(errorReply(pgrstError(404, "PGRST126", "Root endpoint metadata is disabled")));
    }
    if (segments.length > 1) {
      return withCors(errorReply(pgrstError(404, "PGRST125", "Invalid path specified in request URL")));
    }
    const reading = method === "GET" || method === "HEAD";
    const profile = req.headers[reading ? "accept-profile" : "content-profile"] as string | undefined;
    if (profile !== undefined && !EXPOSED_SCHEMAS.includes(profile)) {
      return withCors(
        errorReply(
          pgrstError(406, "PGRST106", `Invalid schema: ${profile}`, null, `Only the following schemas are exposed: ${EXPOSED_SCHEMAS.join(", ")}`),
        ),
      );
    }
    let table: string;
    try {
      table = decodeURIComponent(segments[0]!);
    } catch {
      table = segments[0]!;
    }
    const schema = profile ?? "public";
    if (table !== TABLE || schema !== "public") {
      return withCors(
        errorReply(pgrstError(404, "PGRST205", `Could not find the table '${schema}.${table}' in the schema cache`)),
      );
    }
    const requestPath = `/${table}`;
    if (method === "POST") return withCors(await insert(req, url, requestPath));
    if (method === "GET" || method === "HEAD" || method === "PATCH" || method === "DELETE") {
      req.resume();
      return withCors(await probe(req, method, requestPath));
    }
    req.resume();
    return withCors(errorReply(pgrstError(405, "PGRST117", `Unsupported HTTP method: ${method}`)));
  }

  async function admin(req: http.IncomingMessage, url: URL): Promise<Reply> {
    req.resume();
    if (!isLoopback(req.socket.remoteAddress)) return { status: 403, json: { message: "Loopback only" } };
    if (url.pathname === "/local-admin/health") return { status: 200, json: { status: "ok" } };
    if (url.pathname !== "/local-admin/contacts") return errorReply(GATEWAY_NO_ROUTE);
    if (req.method !== "GET") return { status: 405, headers: { Allow: "GET" }, json: { message: "Method not allowed" } };
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers["authorization"] ?? "");
    if (!bearer || !safeEqual(bearer[1]!, adminToken)) {
      return { status: 401, json: { message: "Missing or wrong admin token (see server.lock in the data folder)" } };
    }
    const rows = await queue.run(() => readRequests(database));
    return { status: 200, json: rows };
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const url = new URL(req.url ?? "/", "http://localhost");
    let reply: Reply;
    if (closing) {
      req.resume();
      reply = { status: 503, json: { message: "The local backend is shutting down" } };
    } else if (url.pathname === "/rest/v1" || url.pathname.startsWith("/rest/v1/")) {
      reply = await rest(req, url);
    } else if (url.pathname.startsWith("/local-admin/")) {
      reply = await admin(req, url);
    } else {
      req.resume();
      reply = errorReply(GATEWAY_NO_ROUTE);
    }
    send(res, reply);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const code = (reply.json as { code?: string } | undefined)?.code;
    log(`${req.method} ${url.pathname} ${reply.status}${code ? ` ${code}` : ""} ${ms.toFixed(1)}ms`);
  }

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= (async () => {
      closing = true;
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
      server.closeAllConnections();
      await stopped;
      await queue.idle();
      await database.close();
      lock?.release();
    })();
    return closed;
  };

  return { url, port, host, anonKey, dataDir, db: database, close };
}
