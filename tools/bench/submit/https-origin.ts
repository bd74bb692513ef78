/**
 * HTTPS origins on loopback for bench:submit: a throw-away certificate from openssl, and an
 * HTTP/2 + TLS 1.3 front (as Cloudflare serves hosted Supabase) forwarding to a plain-HTTP server.
 * The Supabase one answers CORS as Supabase's gateway does (kongPreflight).
 */
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export type Certificate = {
  key: string;
  cert: string;
  /** base64 SHA-256 of the public key, for Chromium's --ignore-certificate-errors-spki-list. */
  spkiHash: string;
};

/** A self-signed certificate for `hostnames`, valid for a day, made by openssl in a temporary folder. */
export function throwawayCertificate(hostnames: readonly string[]): Certificate {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cert-"));
  try {
    const keyFile = path.join(dir, "key.pem");
    const certFile = path.join(dir, "cert.pem");
    const names = hostnames.map((name) => `DNS:${name}`).join(",");
    const request = "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1";
    const output = ["-keyout", keyFile, "-out", certFile];
    const subject = ["-subj", `/CN=${hostnames[0]}`, "-addext", `subjectAltName=${names}`];
    execFileSync("openssl", [...request.split(" "), ...subject, ...output], { stdio: "pipe" });
    const cert = fs.readFileSync(certFile, "utf8");
    const spki = crypto.createPublicKey(cert).export({ type: "spki", format: "der" });
    return {
      key: fs.readFileSync(keyFile, "utf8"),
      cert,
      spkiHash: crypto.createHash("sha256").update(spki).digest("base64"),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Hosted Supabase's preflight answer (Kong's `cors` plugin unconfigured): 200, any origin, the
 * requested headers reflected, and no Access-Control-Max-Age, so Chromium keeps it 5 s.
 * Undefined when the request is not a preflight.
 */
export function kongPreflight(
  headers: http.IncomingHttpHeaders,
  method: string,
): { status: number; headers: Record<string, string> } | undefined {
  if (method !== "OPTIONS" || !headers.origin || !headers["access-control-request-method"])
    return undefined;
  const answer: Record<string, string> = {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT",
    "content-length": "0",
  };
  const requested = headers["access-control-request-headers"];
  if (requested) answer["access-control-allow-headers"] = String(requested);
  return { status: 200, headers: answer };
}

/** Headers HTTP/2 forbids or that belong to one hop only. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "upgrade",
  "proxy-connection",
  "host",
]);

export type HttpsFront = { port: number; close(): Promise<void> };

/**
 * An HTTPS server (HTTP/2 or 1.1) on a free loopback port forwarding to `upstreamPort`. With
 * `gateway: "kong"`, it answers preflights and adds `Access-Control-Allow-Origin: *` as Kong does.
 */
export async function startHttpsFront(
  certificate: Certificate,
  upstreamPort: number,
  gateway?: "kong",
): Promise<HttpsFront> {
  const server = http2.createSecureServer(
    { key: certificate.key, cert: certificate.cert, allowHTTP1: true, minVersion: "TLSv1.3" },
    (req, res) => {
      const method = req.method.toUpperCase();
      const preflight = gateway === "kong" ? kongPreflight(req.headers, method) : undefined;
      if (preflight) {
        res.writeHead(preflight.status, preflight.headers);
        res.end();
        return;
      }
      const headers: http.OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(req.headers))
        if (!name.startsWith(":") && !HOP_BY_HOP.has(name)) headers[name] = value;
      headers.host = `127.0.0.1:${upstreamPort}`;
      const upstream = http.request(
        { host: "127.0.0.1", port: upstreamPort, method, path: req.url, headers },
        (answer) => {
          const out: Record<string, string | string[]> = {};
          for (const [name, value] of Object.entries(answer.headers))
            if (value !== undefined && !HOP_BY_HOP.has(name)) out[name] = value;
          if (gateway === "kong" && req.headers.origin) {
            out["access-control-allow-origin"] = "*";
            delete out.vary;
          }
          res.writeHead(answer.statusCode ?? 502, out);
          answer.pipe(res);
        },
      );
      upstream.once("error", () => {
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      req.pipe(upstream);
    },
  );
  const sockets = new Set<net.Socket>();
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
