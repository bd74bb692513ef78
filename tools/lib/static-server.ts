import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import zlib from "node:zlib";
import { headersForPath, parseHeadersFile, type HeaderRule } from "../../build-time/headers-file";
import { findUnfilledPlaceholder } from "../../build-time/security-headers";

/**
 * Serves a built site (`public/`) the way a static host such as Netlify or Cloudflare Pages does:
 * - `/a/` → `a/index.html`; `/a` → 301 to `/a/` when `a/index.html` exists; files as they are;
 * - anything else → `404.html` with status 404;
 * - the `_headers` file of the folder applied to every response (also the 404 page), like the host;
 * - gzip for compressible types when the client accepts it, so transfer sizes are the ones a host
 *   would send; `_headers` itself and dot-files are never served.
 */
export type StaticServer = {
  url: string;
  port: number;
  close(): Promise<void>;
};

export type StaticServerOptions = {
  root: string;
  port?: number;
  host?: string;
  /** Called once per request: `GET /path 200 1234B`. */
  log?: (line: string) => void;
};

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

const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg\+xml)/;

export async function startStaticServer(options: StaticServerOptions): Promise<StaticServer> {
  const root = path.resolve(options.root);
  if (!fs.existsSync(path.join(root, "index.html"))) {
    throw new Error(`${root} has no index.html: build the site first (npm run build).`);
  }
  const headersFile = path.join(root, "_headers");
  const headersText = fs.existsSync(headersFile) ? fs.readFileSync(headersFile, "utf8") : "";
  if (findUnfilledPlaceholder(headersText)) {
    // `gatsby develop` copies static/_headers into public/ as it is; only `gatsby build` fills it in.
    throw new Error(
      `${headersFile} is the unfilled template (public/ was last written by gatsby develop): build the site first (npm run build).`,
    );
  }
  const rules: HeaderRule[] = parseHeadersFile(headersText);
  const log = options.log ?? (() => undefined);

  const server = http.createServer((req, res) => {
    const started = Date.now();
    const reply = (
      status: number,
      body: Buffer | string,
      type: string,
      extra: Record<string, string> = {},
    ) => {
      const pathname = requestPath(req.url);
      const headers: Record<string, string> = {
        ...headersForPath(rules, pathname),
        ...extra,
        "content-type": type,
      };
      let payload = typeof body === "string" ? Buffer.from(body) : body;
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
      log(`${req.method} ${req.url} ${status} ${payload.length}B ${Date.now() - started}ms`);
    };

    if (req.method !== "GET" && req.method !== "HEAD") {
      reply(405, "Method Not Allowed", "text/plain; charset=utf-8", { allow: "GET, HEAD" });
      return;
    }
    const resolved = resolveRequest(root, requestPath(req.url));
    if (resolved.kind === "redirect") {
      const query = (req.url ?? "").includes("?")
        ? (req.url ?? "").slice((req.url ?? "").indexOf("?"))
        : "";
      reply(301, "", "text/plain; charset=utf-8", { location: resolved.location + query });
      return;
    }
    if (resolved.kind === "file") {
      reply(200, fs.readFileSync(resolved.file), contentType(resolved.file));
      return;
    }
    const notFound = path.join(root, "404.html");
    if (fs.existsSync(notFound)) reply(404, fs.readFileSync(notFound), CONTENT_TYPES[".html"]!);
    else reply(404, "Not Found", "text/plain; charset=utf-8");
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? "127.0.0.1"}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Resolution =
  { kind: "file"; file: string } | { kind: "redirect"; location: string } | { kind: "missing" };

/** Maps a URL path to a file under root, never outside it. */
export function resolveRequest(root: string, urlPath: string): Resolution {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { kind: "missing" };
  }
  if (decoded.includes("\0")) return { kind: "missing" };
  const segments = decoded.split("/").filter(Boolean);
  // Hidden files and the host's own configuration files are not part of the site.
  if (
    segments.some(
      (segment) => segment.startsWith(".") || segment === "_headers" || segment === "_redirects",
    )
  ) {
    return { kind: "missing" };
  }
  const target = path.resolve(root, ...segments);
  if (target !== root && !target.startsWith(root + path.sep)) return { kind: "missing" };

  if (decoded.endsWith("/")) {
    const index = path.join(target, "index.html");
    return isFile(index) ? { kind: "file", file: index } : { kind: "missing" };
  }
  if (isFile(target)) return { kind: "file", file: target };
  if (isFile(path.join(target, "index.html"))) return { kind: "redirect", location: `${urlPath}/` };
  return { kind: "missing" };
}

function requestPath(url: string | undefined): string {
  const pathname = (url ?? "/").split(/[?#]/)[0] ?? "/";
  return pathname.startsWith("/") ? pathname : `/${pathname}`;
}

function contentType(file: string): string {
  return CONTENT_TYPES[path.extname(file).toLowerCase()] ?? "application/octet-stream";
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
