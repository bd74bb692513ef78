/**
 * PostgREST's part, for what the site and the Edge Function send: inserts into contacts and
 * `rpc/<function>` calls, each in a transaction as the key's role, so grants, policies and
 * triggers decide. Reads, updates and deletes: what the grants say, then 405. Errors as PostgREST's.
 */
import type { PGlite, Transaction } from "@electric-sql/pglite";

import { readRequests, type StoredRequest } from "./database";
import { LocalBackendError } from "./errors";
import type { Journal } from "./journal";

export type Role = "anon" | "service_role";

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** JSON body; undefined = empty. */
  json?: unknown;
}

export interface RestRequest {
  method: string;
  /** The path after /rest/v1. */
  path: string;
  role: Role;
  body: Buffer;
  /** As PostgREST passes them to the database, with the client address the gateway set. */
  headers: Record<string, string | string[] | undefined>;
}

/** What PostgREST needs of the running backend: its database queue, schema cache and journal. */
export interface Rest {
  /** Runs a task with the database to itself; throws a LocalBackendError once the folder is lost. */
  run<T>(task: (db: PGlite) => Promise<T>): Promise<T>;
  /** Column → SQL type of public.contacts. */
  columns: Map<string, string>;
  journal: Journal | undefined;
}

export function pgrstError(
  status: number,
  code: string,
  message: string,
  details: string | null = null,
): Reply {
  return { status, json: { code, message, details, hint: null } };
}

const INVALID_JSON = pgrstError(400, "PGRST102", "Empty or invalid json");

/** The columns of public.contacts after the migrations. */
export async function schemaCache(db: PGlite): Promise<Map<string, string>> {
  const result = await db.query<{ name: string; type: string }>(
    `select attname as name, pg_catalog.format_type(atttypid, atttypmod) as type
       from pg_catalog.pg_attribute
      where attrelid = 'public.contacts'::regclass and attnum > 0 and not attisdropped`,
  );
  return new Map(result.rows.map((row) => [row.name, row.type]));
}

/** PostgREST's mapSQLtoHTTP: a SQLSTATE, or else its class (two characters), to a status; the rest 400. */
const STATUS_BY_SQLSTATE: [number, string[]][] = [
  [400, ["P0001"]],
  [403, ["0L", "0P", "28"]],
  [404, ["42P01", "42883"]],
  [405, ["25006"]],
  [409, ["23503", "23505"]],
  [500, ["42P17", "53400", "09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58"]],
  [500, ["F0", "HV", "P0", "XX"]],
  [503, ["57P01", "08", "53"]],
];

export function statusForSqlState(code: string, role: Role): number {
  if (code.startsWith("PT")) {
    const status = Number(code.slice(2));
    return status >= 100 && status <= 999 ? status : 500;
  }
  if (code === "42501") return role === "anon" ? 401 : 403;
  const status = (key: string) => STATUS_BY_SQLSTATE.find(([, keys]) => keys.includes(key))?.[0];
  return status(code) ?? status(code.slice(0, 2)) ?? 400;
}

interface DatabaseError {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

function isDatabaseError(error: unknown): error is DatabaseError {
  const { code, message } = (error ?? {}) as Partial<DatabaseError>;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && typeof message === "string";
}

/** A database error as PostgREST answers it; a folder lost to another process as 503. */
function errorReply(error: unknown, role: Role): Reply {
  if (error instanceof LocalBackendError) return { status: 503, json: { message: error.message } };
  if (!isDatabaseError(error)) throw error;
  const { code, message, detail, hint } = error;
  const status = statusForSqlState(code, role);
  return { status, json: { code, message, details: detail ?? null, hint: hint ?? null } };
}

/** Runs `task` in a transaction of its own as the request's role, as PostgREST does. */
function asRole<T>(rest: Rest, request: RestRequest, task: (tx: Transaction) => Promise<T>) {
  return rest.run((db) =>
    db.transaction(async (tx) => {
      await tx.query(
        `select set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
                set_config('request.headers', $3, true)`,
        [request.role, JSON.stringify({ role: request.role }), JSON.stringify(request.headers)],
      );
      return task(tx);
    }),
  );
}

const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The body as text; throws on invalid UTF-8, which PostgREST answers as invalid JSON. */
const utf8 = (body: Buffer): string => new TextDecoder("utf-8", { fatal: true }).decode(body);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The keys and rows (a JSON array) of an insert body, as PostgREST reads them. */
function insertBody(body: Buffer): { keys: string[]; rows: string } | Reply {
  let text: string;
  let value: unknown;
  try {
    text = utf8(body);
    value = JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
  // A scalar body inserts nothing, as in PostgREST.
  if (typeof value !== "object" || value === null) return { keys: [], rows: "[]" };
  const rows = Array.isArray(value) ? value : [value];
  const keys = isObject(rows[0]) ? Object.keys(rows[0]) : [];
  const sameKeys = (row: unknown): boolean =>
    isObject(row) && Object.keys(row).sort().join("\0") === [...keys].sort().join("\0");
  if (!rows.every(sameKeys)) return pgrstError(400, "PGRST102", "All object keys must match");
  return { keys, rows: Array.isArray(value) ? text : `[${text}]` };
}

async function insert(rest: Rest, request: RestRequest): Promise<Reply> {
  const type = String(request.headers["content-type"] ?? "application/json");
  const mediaType = type.split(";")[0]!.trim().toLowerCase();
  // PostgREST's answer (its docs list PGRST107/415); a text/plain POST needs no CORS preflight.
  if (mediaType !== "application/json")
    return pgrstError(400, "PGRST102", `Content-Type not acceptable: ${mediaType}`);
  const body = insertBody(request.body);
  if ("status" in body) return body;
  const unknown = body.keys.find((key) => !rest.columns.has(key));
  if (unknown !== undefined) {
    const message = `Could not find the '${unknown}' column of 'contacts' in the schema cache`;
    return pgrstError(400, "PGRST204", message);
  }
  const list = body.keys.map(quoteIdent).join(", ");
  const typed = body.keys.map((key) => `${quoteIdent(key)} ${rest.columns.get(key)}`).join(", ");
  const representation = /\breturn=representation\b/.test(String(request.headers.prefer ?? ""));
  // PostgREST's statement: the body is one json parameter read with json_to_recordset.
  const sql =
    (body.keys.length === 0
      ? "insert into public.contacts select from json_array_elements($1::json)"
      : `insert into public.contacts (${list}) select ${list} from json_to_recordset($1::json) as r(${typed})`) +
    (representation ? " returning *" : "");
  const [inserted, stored] = await asRole(rest, request, async (tx) => {
    const result = await tx.query(sql, [body.rows]);
    if (!rest.journal || !result.affectedRows) return [result, [] as StoredRequest[]] as const;
    await tx.query("reset role"); // anon may not read: the superuser copies the row for the journal
    return [result, await readRequests(tx, true)] as const;
  });
  rest.journal?.append(stored); // on disk before the 201
  const headers = { "Content-Range": "*/*" };
  return representation ? { status: 201, headers, json: inserted.rows } : { status: 201, headers };
}

const FUNCTION_SHAPE_SQL = `
  select p.prorettype = 'pg_catalog.void'::regtype as void, p.proretset as set,
         t.typtype = 'c' or 't' = any(coalesce(p.proargmodes::text[], '{}')) as rows
    from pg_catalog.pg_proc p join pg_catalog.pg_type t on t.oid = p.prorettype
   where p.pronamespace = 'public'::regnamespace and p.proname = $1
   limit 1`;

function notFound(name: string, names: string[]): Reply {
  const list = [...names].sort().join(", ");
  const searched = list ? ` with parameters ${list}` : " without parameters";
  return pgrstError(
    404,
    "PGRST202",
    `Could not find the function public.${name}(${list}) in the schema cache`,
    `Searched for the function public.${name}${searched}, but no matches were found in the schema cache.`,
  );
}

/**
 * A function call: a JSON object of named arguments, or, with `Content-Type: text/plain`, the
 * body as a single unnamed text parameter. The answer follows the return type: a set → array,
 * a row → object, a scalar → its JSON value, void → 204.
 */
async function callFunction(rest: Rest, request: RestRequest, name: string): Promise<Reply> {
  const plain = /^text\/plain\b/i.test(String(request.headers["content-type"] ?? ""));
  let text: string;
  let args: unknown = {};
  try {
    text = utf8(request.body);
    if (!plain && text.trim() !== "") args = JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
  if (!isObject(args))
    return pgrstError(400, "PGRST102", "Expected a JSON object of named arguments");
  const names = Object.keys(args);
  const values = plain
    ? [text]
    : Object.values(args).map((value) =>
        value === null ? null : typeof value === "object" ? JSON.stringify(value) : String(value),
      );
  const call = names.map((key, i) => `${quoteIdent(key)} => $${i + 1}`).join(", ");
  const fn = `public.${quoteIdent(name)}(${plain ? "$1::text" : call})`;
  const body = await asRole(rest, request, async (tx) => {
    const shapes = await tx.query<{ void: boolean; set: boolean; rows: boolean }>(
      FUNCTION_SHAPE_SQL,
      [name],
    );
    const shape = shapes.rows[0];
    if (!shape) return undefined;
    const from = shape.rows ? `(select * from ${fn}) r` : `${fn} r`;
    let sql = `select pg_catalog.to_json(${fn})::text as body`;
    if (shape.void) sql = `select ${fn}`;
    else if (shape.set)
      sql = `select coalesce(pg_catalog.json_agg(r), '[]')::text as body from ${from}`;
    else if (shape.rows) sql = `select pg_catalog.to_json(r)::text as body from ${from}`;
    const result = await tx.query<{ body?: string }>(sql, values);
    return shape.void ? null : (result.rows[0]?.body ?? "null");
  }).catch((error: unknown) => {
    // Arguments that match no function of that name: PostgreSQL's 42883, PostgREST's PGRST202.
    if (
      isDatabaseError(error) &&
      error.code === "42883" &&
      error.message.startsWith("function public.")
    )
      return undefined;
    throw error;
  });
  if (body === undefined) return notFound(name, names);
  return body === null ? { status: 204 } : { status: 200, json: JSON.parse(body) };
}

/** Methods this stand-in does not implement: what the grants say, as PostgREST would run them. */
const PROBES: Record<string, string> = {
  GET: "select 1 from public.contacts limit 0",
  HEAD: "select 1 from public.contacts limit 0",
  PATCH: 'update public.contacts set "name" = "name" where false',
  DELETE: "delete from public.contacts where false",
};

async function answer(rest: Rest, request: RestRequest): Promise<Reply> {
  const unsupported = pgrstError(405, "PGRST117", `Unsupported HTTP method: ${request.method}`);
  const segments = request.path.split("/").filter(Boolean);
  if (segments[0] === "rpc" && segments.length === 2)
    return request.method === "POST" ? callFunction(rest, request, segments[1]!) : unsupported;
  if (segments.length !== 1)
    return pgrstError(404, "PGRST125", "Invalid path specified in request URL");
  if (segments[0] !== "contacts") {
    const message = `Could not find the table 'public.${segments[0]}' in the schema cache`;
    return pgrstError(404, "PGRST205", message);
  }
  if (request.method === "POST") return insert(rest, request);
  const probe = PROBES[request.method];
  if (probe) await asRole(rest, request, (tx) => tx.query(probe));
  return unsupported;
}

/** Answers a request under /rest/v1 that the gateway let through. */
export async function handleRest(rest: Rest, request: RestRequest): Promise<Reply> {
  try {
    return await answer(rest, request);
  } catch (error) {
    return errorReply(error, request.role);
  }
}
