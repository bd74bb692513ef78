/**
 * `/local-admin/…`: loopback only. `health` for tools that wait for the backend, and
 * `contacts` (with the per-run token from the lock file) for `npm run requests` while the
 * backend holds the database.
 */
import type http from "node:http";

import type { BackendContext } from "./context";
import { readRequests } from "./database";
import { safeEqual } from "./gateway";
import { GATEWAY_NO_ROUTE } from "./postgrest";
import { errorReply, type Reply } from "./reply";

function isLoopback(address: string | undefined): boolean {
  return address === "::1" || address === "::ffff:127.0.0.1" || (address?.startsWith("127.") ?? false);
}

export async function handleAdmin(context: BackendContext, req: http.IncomingMessage, url: URL): Promise<Reply> {
  req.resume();
  if (!isLoopback(req.socket.remoteAddress)) return { status: 403, json: { message: "Loopback only" } };
  if (url.pathname === "/local-admin/health") return { status: 200, json: { status: "ok" } };
  if (url.pathname !== "/local-admin/contacts") return errorReply(GATEWAY_NO_ROUTE);
  if (req.method !== "GET") return { status: 405, headers: { Allow: "GET" }, json: { message: "Method not allowed" } };
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers["authorization"] ?? "");
  if (!bearer || !safeEqual(bearer[1]!, context.adminToken)) {
    return { status: 401, json: { message: "Missing or wrong admin token (see server.lock in the data folder)" } };
  }
  const rows = await context.queue.run(() => readRequests(context.database));
  return { status: 200, json: rows };
}
