/**
 * The one listener, as Supabase's API gateway: for `/rest/v1/…` CORS, the key that selects the role
 * and the 1 MiB limit, then PostgREST (postgrest.ts); `/functions/v1/<name>` passed to the
 * function's process (hosted: `--no-verify-jwt`); `/local-admin/contacts` for `npm run requests`.
 */
import crypto from "node:crypto";
import type http from "node:http";

import { LOCAL_ANON_KEY } from "../build-time/local-backend-defaults";
import { readRequests } from "./database";
import { handleRest, pgrstError, type Reply, type Rest, type Role } from "./postgrest";

export interface Gateway {
  rest: Rest;
  serviceKey: string;
  /** Edge Function name → the URL its process listens on. */
  functions: Map<string, string>;
  /** While the backend stops, only the service role (the function finishing its work) is served. */
  closing: boolean;
  /** Called after a write was answered (the visitor never waits for what follows). */
  afterWrite(): void;
}

const CORS_ALLOW_HEADERS =
  "apikey, authorization, content-type, prefer, x-client-info, accept-profile, content-profile, x-supabase-api-version, accept, range, x-retry-count";
const CORS_EXPOSE_HEADERS =
  "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit";

/** Headers not passed on to or from a function: fetch sets its own, and decodes the body. */
const HOP_BY_HOP = /^(connection|keep-alive|transfer-encoding|content-length|content-encoding)$/;

/** A reply, or a function's answer passed on as it came. */
type Answer = Reply & { raw?: Buffer };

const NO_ROUTE: Reply = { status: 404, json: { message: "no Route matched with those values" } };
const TOO_LARGE: Reply = { status: 413, json: { message: "Request size limit exceeded" } };

function sameKey(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The body, or undefined past 1 MiB (drained up to 16 MiB, so that the client sees the 413). */
async function readBody(
  req: http.IncomingMessage,
  limit = 1024 * 1024,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit * 16) req.destroy();
      if (size <= limit) chunks.push(chunk);
    }
  } catch {
    return undefined; // the client went away, or sent far too much
  }
  return size > limit ? undefined : Buffer.concat(chunks);
}

/** The role the request's keys select, or the gateway's (or PostgREST's) refusal. */
function roleOf(gateway: Gateway, req: http.IncomingMessage, url: URL): Role | Reply {
  const apikey = (req.headers.apikey as string | undefined) || url.searchParams.get("apikey");
  if (!apikey) {
    const hint = "No `apikey` request header or url param was found.";
    return { status: 401, json: { message: "No API key found in request", hint } };
  }
  const role = sameKey(apikey, LOCAL_ANON_KEY)
    ? "anon"
    : sameKey(apikey, gateway.serviceKey)
      ? "service_role"
      : undefined;
  if (!role) {
    const hint = "Double check your Supabase `anon` or `service_role` API key.";
    return { status: 401, json: { message: "Invalid API key", hint } };
  }
  const bearer = req.headers.authorization;
  if (bearer !== undefined && !sameKey(bearer.replace(/^bearer\s+/i, ""), apikey))
    return pgrstError(401, "PGRST301", `JWT does not match the ${role.replace("_", "-")} key`);
  return role;
}

/** What a request outside /functions/v1 gets. */
async function route(gateway: Gateway, req: http.IncomingMessage, url: URL): Promise<Reply> {
  const method = req.method ?? "GET";
  if (method === "OPTIONS" && url.pathname.startsWith("/rest/v1")) {
    const requested = req.headers["access-control-request-headers"];
    const allow = `${CORS_ALLOW_HEADERS}${requested ? `, ${requested}` : ""}`;
    return {
      status: 200,
      headers: {
        "Access-Control-Allow-Methods": "GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD",
        "Access-Control-Allow-Headers": allow,
        "Access-Control-Max-Age": "86400",
      },
    };
  }
  const role = roleOf(gateway, req, url);
  if (typeof role !== "string") return role;
  if (gateway.closing && role !== "service_role")
    return { status: 503, json: { message: "The local backend is shutting down" } };
  const body = await readBody(req);
  if (!body) return TOO_LARGE;
  if (url.pathname === "/rest/v1" || url.pathname.startsWith("/rest/v1/")) {
    // The client address as hosted Supabase's gateway (Cloudflare) names it: the connection's,
    // whatever a client wrote in this header or in X-Forwarded-For (which the database never reads).
    const headers = { ...req.headers, "cf-connecting-ip": req.socket.remoteAddress ?? "" };
    const path = url.pathname.slice("/rest/v1".length);
    return handleRest(gateway.rest, { method, path, role, body, headers });
  }
  if (url.pathname === "/local-admin/contacts" && method === "GET") {
    if (role !== "service_role")
      return { status: 403, json: { message: "With the service-role key only" } };
    return { status: 200, json: await gateway.rest.run((db) => readRequests(db)) };
  }
  return NO_ROUTE;
}

/** `/functions/v1/<name>/…` to the function's process, answered as it answers. */
async function forward(gateway: Gateway, req: http.IncomingMessage, url: URL): Promise<Answer> {
  const [name = "", ...rest] = url.pathname.slice("/functions/v1/".length).split("/");
  const target = gateway.functions.get(name);
  const body = await readBody(req);
  if (!body) return TOO_LARGE;
  if (!target)
    return {
      status: 404,
      json: { code: "NOT_FOUND", message: "Requested function was not found" },
    };
  const method = req.method ?? "GET";
  const headers = Object.entries(req.headers).filter(
    ([header]) => !HOP_BY_HOP.test(header) && header !== "host" && header !== "x-forwarded-for",
  ) as [string, string][];
  // The client's address, as hosted functions get it (book-meeting limits guesses by it).
  headers.push(["x-forwarded-for", req.socket.remoteAddress ?? ""]);
  const response = await fetch(`${target}/${rest.join("/")}${url.search}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : new Uint8Array(body),
  }).catch(() => undefined);
  if (!response) return { status: 502, json: { message: `The function ${name} did not answer` } };
  const passed = [...response.headers].filter(([header]) => !HOP_BY_HOP.test(header));
  const raw = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: Object.fromEntries(passed), raw };
}

function send(res: http.ServerResponse, reply: Answer, closing: boolean): void {
  const body =
    reply.raw ?? (reply.json === undefined ? undefined : Buffer.from(JSON.stringify(reply.json)));
  const headers: Record<string, string | number> = { ...reply.headers };
  if (reply.json !== undefined) headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = body?.length ?? 0;
  if (closing) headers["Connection"] = "close";
  res.writeHead(reply.status, headers);
  res.end(res.req.method === "HEAD" ? undefined : body);
}

/** Answers one request; returns its status and error code, for the log line. */
export async function handle(
  gateway: Gateway,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<string> {
  const url = new URL(req.url ?? "/", "http://localhost");
  const forwarded = url.pathname.startsWith("/functions/v1/");
  let reply = forwarded ? await forward(gateway, req, url) : await route(gateway, req, url);
  if (url.pathname.startsWith("/rest/v1")) {
    const cors = {
      "Access-Control-Allow-Origin": req.headers.origin ?? "*",
      "Access-Control-Expose-Headers": CORS_EXPOSE_HEADERS,
      Vary: "Origin",
    };
    reply = { ...reply, headers: { ...cors, ...reply.headers } };
  }
  send(res, reply, gateway.closing);
  if (req.method === "POST" && reply.status < 300 && url.pathname.startsWith("/rest/v1/"))
    gateway.afterWrite();
  const code = (reply.json as { code?: string } | undefined)?.code;
  return `${reply.status}${code ? ` ${code}` : ""}`;
}
