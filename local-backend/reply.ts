/** What a handler answers, and how it goes on the wire. */
import type http from "node:http";

import type { ErrorReply } from "./postgrest";

export type Headers = Record<string, string>;

export interface Reply {
  status: number;
  headers?: Headers;
  /** JSON-serialisable body; undefined = empty body. */
  json?: unknown;
}

/** A PostgREST or gateway error as a reply, with the `Proxy-Status` header PostgREST adds. */
export function errorReply(error: ErrorReply): Reply {
  const headers: Headers = { ...(error.headers ?? {}) };
  const code = (error.body as { code?: string }).code;
  if (code) headers["Proxy-Status"] = `PostgREST; error=${code}`;
  return { status: error.status, headers, json: error.body };
}

/** Writes the reply; `closing` asks the client not to reuse the connection. */
export function sendReply(res: http.ServerResponse, reply: Reply, closing: boolean): void {
  const body =
    reply.json === undefined ? undefined : Buffer.from(JSON.stringify(reply.json), "utf8");
  const headers: Headers = { ...(reply.headers ?? {}) };
  if (body) headers["Content-Type"] = "application/json; charset=utf-8";
  headers["Content-Length"] = String(body?.length ?? 0);
  if (closing) headers["Connection"] = "close";
  res.writeHead(reply.status, headers);
  res.end(res.req.method === "HEAD" ? undefined : body);
}
