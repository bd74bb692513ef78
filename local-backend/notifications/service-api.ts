/**
 * What the notification function needs of the project's REST API, for the local backend: the
 * three delivery-state functions as PostgREST RPC (`POST /rest/v1/rpc/<name>`, JSON object of
 * named arguments, answered with the rows as a JSON array), run as role service_role. It is a
 * separate listener on 127.0.0.1 with its own per-run key, so the public API on 54321 keeps
 * accepting nothing but the anon key.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

import type { PGlite } from "@electric-sql/pglite";

/** Runs a task with the database to itself (the backend's queue). */
export type DatabaseRunner = <T>(task: (db: PGlite) => Promise<T>) => Promise<T>;

export interface ServiceApi {
  url: string;
  serviceKey: string;
  close(): Promise<void>;
}

const FUNCTIONS = new Set(["claim_contact_notification", "claim_due_contact_notifications", "finish_contact_notification"]);
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function reply(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function sameKey(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as unknown;
}

export async function startServiceApi(run: DatabaseRunner): Promise<ServiceApi> {
  const serviceKey = `local-service-${crypto.randomBytes(24).toString("hex")}`;

  async function rpc(name: string, args: Record<string, unknown>): Promise<string> {
    const names = Object.keys(args);
    if (!names.every((key) => IDENTIFIER.test(key))) throw new Error("argument names must be plain identifiers");
    const call = names.map((key, index) => `${key} => $${index + 1}`).join(", ");
    const values = names.map((key) => {
      const value = args[key];
      return value === null || value === undefined ? null : String(value);
    });
    return run((db) =>
      db.transaction(async (tx) => {
        await tx.query("select set_config('role', 'service_role', true), set_config('request.jwt.claims', '{\"role\":\"service_role\"}', true)");
        const result = await tx.query<{ body: string }>(
          `select coalesce(json_agg(r), '[]'::json)::text as body from public.${name}(${call}) r`,
          values,
        );
        return result.rows[0]!.body;
      }),
    );
  }

  const server = http.createServer((req, res) => {
    void (async () => {
      const name = /^\/rest\/v1\/rpc\/([a-z_]+)$/.exec(req.url ?? "")?.[1];
      if (req.method !== "POST" || !name || !FUNCTIONS.has(name)) return reply(res, 404, '{"message":"no such function"}');
      if (!sameKey(req.headers.apikey as string | undefined, serviceKey)) return reply(res, 401, '{"message":"Invalid API key"}');
      let args: unknown;
      try {
        args = await readJson(req);
      } catch {
        return reply(res, 400, '{"code":"PGRST102","message":"Empty or invalid json"}');
      }
      if (typeof args !== "object" || args === null || Array.isArray(args)) {
        return reply(res, 400, '{"code":"PGRST102","message":"Expected a JSON object of arguments"}');
      }
      try {
        reply(res, 200, await rpc(name, args as Record<string, unknown>));
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string };
        reply(res, 400, JSON.stringify({ code: code ?? "PGRSTX00", message: message ?? String(error) }));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    serviceKey,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
