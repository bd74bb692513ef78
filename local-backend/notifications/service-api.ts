/**
 * What the notification function needs of the project's REST API, for the local backend:
 * PostgREST RPC (`POST /rest/v1/rpc/<name>`, ../rpc.ts) run as role service_role. It is a
 * separate listener on 127.0.0.1 with its own per-run key, so the public API on 54321 keeps
 * accepting nothing but the anon key.
 */
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

import type { PGlite } from "@electric-sql/pglite";

import { callFunctionAsServiceRole, isRpcAnswer, rpcName } from "../rpc";

/** Runs a task with the database to itself (the backend's queue). */
export type DatabaseRunner = <T>(task: (db: PGlite) => Promise<T>) => Promise<T>;

export interface ServiceApi {
  url: string;
  serviceKey: string;
  close(): Promise<void>;
}

function reply(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
  });
  res.end(body);
}

function sameKey(given: string | undefined, expected: string): boolean {
  const a = Buffer.from(given ?? "");
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

async function readText(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startServiceApi(run: DatabaseRunner): Promise<ServiceApi> {
  const serviceKey = `local-service-${crypto.randomBytes(24).toString("hex")}`;

  const call = (name: string, body: string, contentType: string | undefined) =>
    run((db) => callFunctionAsServiceRole(db, name, body, contentType));

  const server = http.createServer((req, res) => {
    void (async () => {
      const name = req.method === "POST" ? rpcName(req.url ?? "") : undefined;
      if (!name) return reply(res, 404, '{"message":"no Route matched with those values"}');
      if (!sameKey(req.headers.apikey as string | undefined, serviceKey))
        return reply(res, 401, '{"message":"Invalid API key"}');
      try {
        const answer = await call(name, await readText(req), req.headers["content-type"]);
        if (!isRpcAnswer(answer)) return reply(res, answer.status, JSON.stringify(answer.body));
        reply(res, answer.status, answer.body ?? "");
      } catch (error) {
        const { code, message } = error as { code?: string; message?: string };
        reply(
          res,
          400,
          JSON.stringify({ code: code ?? "PGRSTX00", message: message ?? String(error) }),
        );
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
