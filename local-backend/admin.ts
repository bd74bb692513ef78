/**
 * `/local-admin/…`: loopback only. `health` for tools that wait for the backend, and, with the
 * per-run token from the lock file, what staff read with the service role on a hosted project:
 * `contacts` for `npm run requests` and `rpc/<function>` (as PostgREST's RPC, run as
 * service_role) for `npm run report`, while the backend holds the database.
 */
import type http from "node:http";

import { databaseErrorReply, type BackendContext } from "./context";
import { readRequests } from "./database";
import { callFunctionAsServiceRole, rpcReply } from "./rpc";
import { readBody } from "./request-body";
import { safeEqual } from "./gateway";
import { GATEWAY_NO_ROUTE } from "./postgrest";
import { errorReply, type Reply } from "./reply";

function isLoopback(address: string | undefined): boolean {
  return (
    address === "::1" || address === "::ffff:127.0.0.1" || (address?.startsWith("127.") ?? false)
  );
}

export async function handleAdmin(
  context: BackendContext,
  req: http.IncomingMessage,
  url: URL,
): Promise<Reply> {
  const rpc = /^\/local-admin\/rpc\/([a-z_][a-z0-9_]*)$/.exec(url.pathname)?.[1];
  const body = rpc ? (await readBody(req, context.maxBodyBytes)).body : (req.resume(), undefined);
  if (!isLoopback(req.socket.remoteAddress))
    return { status: 403, json: { message: "Loopback only" } };
  if (url.pathname === "/local-admin/health") return { status: 200, json: { status: "ok" } };
  if (url.pathname !== "/local-admin/contacts" && !rpc) return errorReply(GATEWAY_NO_ROUTE);
  const method = rpc ? "POST" : "GET";
  if (req.method !== method)
    return { status: 405, headers: { Allow: method }, json: { message: "Method not allowed" } };
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers["authorization"] ?? "");
  if (!bearer || !safeEqual(bearer[1]!, context.adminToken)) {
    return {
      status: 401,
      json: { message: "Missing or wrong admin token (see server.lock in the data folder)" },
    };
  }
  if (rpc) return callAsServiceRole(context, req, rpc, body!);
  const rows = await context.queue.run(() => readRequests(context.database));
  return { status: 200, json: rows };
}

async function callAsServiceRole(
  context: BackendContext,
  req: http.IncomingMessage,
  name: string,
  body: Buffer,
): Promise<Reply> {
  try {
    return rpcReply(
      await context.queue.run(() =>
        callFunctionAsServiceRole(
          context.database,
          name,
          body.toString("utf8"),
          req.headers["content-type"],
        ),
      ),
    );
  } catch (error) {
    return databaseErrorReply(error);
  }
}
