/**
 * `/rest/v1/…` as Supabase's API gateway and PostgREST answer it: CORS, the `apikey` and
 * `Authorization` checks, the path, schema and table, then the insert; `rpc/<function>` calls
 * (rpc.ts). Methods other than POST are not implemented; they get the answer the grants give
 * (a probe statement as anon).
 */
import crypto from "node:crypto";
import type http from "node:http";

import { databaseErrorReply, runAsAnon, TABLE, type BackendContext } from "./context";
import { insertContacts } from "./insert";
import { GATEWAY_INVALID_API_KEY, GATEWAY_NO_API_KEY, pgrstError } from "./postgrest";
import { errorReply, type Headers, type Reply } from "./reply";
import { callRpcAsAnon, rpcName } from "./rpc";

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

/** Compares secrets in constant time. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

function preflight(req: http.IncomingMessage): Reply {
  const requested = String(req.headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((header) => header.trim().toLowerCase())
    .filter(Boolean);
  return {
    status: 200,
    headers: {
      "Access-Control-Allow-Methods": "GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD",
      "Access-Control-Allow-Headers": [...new Set([...CORS_ALLOW_HEADERS, ...requested])].join(
        ", ",
      ),
      "Access-Control-Max-Age": "86400",
    },
  };
}

/** The gateway's key check: an `apikey` is required, and only the anon key is known here. */
function refusedCredentials(
  context: BackendContext,
  req: http.IncomingMessage,
  url: URL,
): Reply | undefined {
  const apikey =
    (req.headers["apikey"] as string | undefined) ?? url.searchParams.get("apikey") ?? undefined;
  if (!apikey) return errorReply(GATEWAY_NO_API_KEY);
  if (!safeEqual(apikey, context.anonKey)) return errorReply(GATEWAY_INVALID_API_KEY);
  const authorization = req.headers["authorization"];
  if (authorization === undefined) return undefined;
  const bearer = /^bearer\s+(.+)$/i.exec(authorization.trim());
  if (bearer && safeEqual(bearer[1]!, context.anonKey)) return undefined;
  return errorReply(
    pgrstError(
      401,
      "PGRST301",
      "JWT does not match the anon key",
      null,
      "The local backend accepts only its anon key, as apikey and (optionally) as Authorization: Bearer.",
    ),
  );
}

/** The table a `/rest/v1/<table>` request names, or PostgREST's error for the path or schema. */
function resolveTable(
  req: http.IncomingMessage,
  url: URL,
  method: string,
): { table: string } | Reply {
  const segments = url.pathname
    .replace(/^\/rest\/v1\/?/, "")
    .split("/")
    .filter(Boolean);
  if (segments.length === 0)
    return errorReply(pgrstError(404, "PGRST126", "Root endpoint metadata is disabled"));
  if (segments.length > 1)
    return errorReply(pgrstError(404, "PGRST125", "Invalid path specified in request URL"));
  const reading = method === "GET" || method === "HEAD";
  const profile = req.headers[reading ? "accept-profile" : "content-profile"] as string | undefined;
  if (profile !== undefined && !EXPOSED_SCHEMAS.includes(profile)) {
    const hint = `Only the following schemas are exposed: ${EXPOSED_SCHEMAS.join(", ")}`;
    return errorReply(pgrstError(406, "PGRST106", `Invalid schema: ${profile}`, null, hint));
  }
  let table: string;
  try {
    table = decodeURIComponent(segments[0]!);
  } catch {
    table = segments[0]!;
  }
  const schema = profile ?? "public";
  if (table !== TABLE || schema !== "public") {
    return errorReply(
      pgrstError(
        404,
        "PGRST205",
        `Could not find the table '${schema}.${table}' in the schema cache`,
      ),
    );
  }
  return { table };
}

/** Methods this stand-in does not implement: answer what the grants say, as PostgREST would. */
async function probe(
  context: BackendContext,
  req: http.IncomingMessage,
  method: string,
  requestPath: string,
): Promise<Reply> {
  const statement =
    method === "PATCH"
      ? `update public.${TABLE} set "name" = "name" where false`
      : method === "DELETE"
        ? `delete from public.${TABLE} where false`
        : `select 1 from public.${TABLE} limit 0`;
  try {
    await runAsAnon(context, req, requestPath, (tx) => tx.query(statement));
  } catch (error) {
    return databaseErrorReply(error);
  }
  const hint = "The local backend only implements inserts (POST).";
  return errorReply(pgrstError(405, "PGRST117", `Unsupported HTTP method: ${method}`, null, hint));
}

async function route(
  context: BackendContext,
  req: http.IncomingMessage,
  url: URL,
  method: string,
): Promise<Reply> {
  if (method === "OPTIONS") return preflight(req);
  const refused = refusedCredentials(context, req, url);
  if (refused) return refused;
  const functionName = rpcName(url.pathname);
  if (functionName !== undefined) {
    if (method === "POST") return callRpcAsAnon(context, req, functionName);
    req.resume();
    const hint = "The local backend calls functions with POST only.";
    return errorReply(
      pgrstError(405, "PGRST117", `Unsupported HTTP method: ${method}`, null, hint),
    );
  }
  const resolved = resolveTable(req, url, method);
  if (!("table" in resolved)) return resolved;
  const requestPath = `/${resolved.table}`;
  if (method === "POST") return insertContacts(context, req, url, requestPath);
  req.resume();
  if (method === "GET" || method === "HEAD" || method === "PATCH" || method === "DELETE") {
    return probe(context, req, method, requestPath);
  }
  return errorReply(pgrstError(405, "PGRST117", `Unsupported HTTP method: ${method}`));
}

/** Answers a request under `/rest/v1`; every answer carries the CORS headers. */
export async function handleRest(
  context: BackendContext,
  req: http.IncomingMessage,
  url: URL,
): Promise<Reply> {
  const method = (req.method ?? "GET").toUpperCase();
  const reply = await route(context, req, url, method);
  const cors: Headers = {
    "Access-Control-Allow-Origin": req.headers.origin ?? "*",
    "Access-Control-Expose-Headers": CORS_EXPOSE_HEADERS,
    Vary: "Origin",
  };
  return { ...reply, headers: { ...cors, ...(reply.headers ?? {}) } };
}
