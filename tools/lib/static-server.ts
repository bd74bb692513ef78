/**
 * Serves a built site (`public/`) the way a static host such as Netlify or Cloudflare Pages does:
 * - `/a/` → `a/index.html`; `/a` → 301 to `/a/` when `a/index.html` exists; files as they are;
 * - anything else → `404.html` with status 404;
 * - the folder's `_headers` file applied to every response (the 404 page too), like the host;
 * - gzip for compressible types when the client accepts it, so transfer sizes are the ones a host
 *   would send; `_headers` itself and dot-files are never served.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";

import { headersForPath, parseHeadersFile } from "../../build-time/headers-file";
import { findUnfilledPlaceholder } from "../../build-time/security-headers";

export type StaticServer = { url: string; port: number; close(): Promise<void> };

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff": "font/woff",
  ".woff2": "font/woff2",
};
const TEXT = "text/plain; charset=utf-8";
const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg\+xml)/;

const isFile = (file: string): boolean =>
  fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;

type Resolution =
  { kind: "file"; file: string } | { kind: "redirect"; location: string } | { kind: "missing" };

/** Maps a URL path to a file under root, never outside it, and never a dot-file or `_headers`. */
function resolveRequest(root: string, urlPath: string): Resolution {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: "missing" };
  }
  const segments = decoded.split("/").filter(Boolean);
  const hidden = (segment: string) =>
    segment.startsWith(".") || segment === "_headers" || segment === "_redirects";
  const target = path.resolve(root, ...segments);
  if (
    decoded.includes("\0") ||
    segments.some(hidden) ||
    !`${target}${path.sep}`.startsWith(`${root}${path.sep}`)
  )
    return { kind: "missing" };
  const index = path.join(target, "index.html");
  if (decoded.endsWith("/"))
    return isFile(index) ? { kind: "file", file: index } : { kind: "missing" };
  if (isFile(target)) return { kind: "file", file: target };
  return isFile(index) ? { kind: "redirect", location: `${urlPath}/` } : { kind: "missing" };
}

export async function startStaticServer(options: {
  root: string;
  port?: number;
  host?: string;
}): Promise<StaticServer> {
  const root = path.resolve(options.root);
  const host = options.host ?? "127.0.0.1";
  if (!fs.existsSync(path.join(root, "index.html")))
    throw new Error(`${root} has no index.html: build the site first (npm run build).`);
  const headersFile = path.join(root, "_headers");
  const headersText = fs.existsSync(headersFile) ? fs.readFileSync(headersFile, "utf8") : "";
  // `gatsby develop` copies static/_headers into public/ as it is; only `gatsby build` fills it in.
  if (findUnfilledPlaceholder(headersText))
    throw new Error(
      `${headersFile} is the unfilled template (public/ was last written by gatsby develop): build the site first (npm run build).`,
    );
  const rules = parseHeadersFile(headersText);

  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    const pathname = url.split("?")[0]!;
    const query = url.slice(pathname.length);
    const reply = (status: number, body: Buffer | string, type: string, extra = {}) => {
      const headers: Record<string, string> = {
        ...headersForPath(rules, pathname),
        ...extra,
        "content-type": type,
      };
      let payload = Buffer.from(body);
      if (COMPRESSIBLE.test(type) && payload.length > 256) {
        headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
        if (/\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""))) {
          payload = zlib.gzipSync(payload);
          headers["content-encoding"] = "gzip";
        }
      }
      headers["content-length"] = String(payload.length);
      res.writeHead(status, headers);
      res.end(req.method === "HEAD" ? undefined : payload);
    };
    if (req.method !== "GET" && req.method !== "HEAD")
      return reply(405, "Method Not Allowed", TEXT, { allow: "GET, HEAD" });
    const resolved = resolveRequest(root, pathname.startsWith("/") ? pathname : `/${pathname}`);
    if (resolved.kind === "redirect")
      return reply(301, "", TEXT, { location: resolved.location + query });
    if (resolved.kind === "file") {
      const type = CONTENT_TYPES[path.extname(resolved.file).toLowerCase()];
      return reply(200, fs.readFileSync(resolved.file), type ?? "application/octet-stream");
    }
    const notFound = path.join(root, "404.html");
    if (isFile(notFound)) reply(404, fs.readFileSync(notFound), CONTENT_TYPES[".html"]!);
    else reply(404, "Not Found", TEXT);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
