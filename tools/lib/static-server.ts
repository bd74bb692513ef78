/**
 * Serves a built site (`public/`) the way a static host such as Netlify or Cloudflare Pages does:
 * `/a/` → `a/index.html`, `/a` → 301 to `/a/`, anything else → `404.html` with status 404, the
 * folder's `_headers` applied to every response (the 404 page too), gzip when the client accepts
 * it (so transfer sizes are a host's), and never `_headers`, `_redirects` or a dot-file.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";

import compression from "compression";
import express from "express";

import { headersForPath, parseHeadersFile } from "../../build-time/headers-file";
import { findUnfilledPlaceholder } from "../../build-time/security-headers";

export type StaticServer = { url: string; port: number; close(): Promise<void> };

const HOST_FILES = /(^|\/)_(headers|redirects)(\/|$)/;

export async function startStaticServer(options: {
  root: string;
  port?: number;
}): Promise<StaticServer> {
  const root = path.resolve(options.root);
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
  const notFoundPage = path.join(root, "404.html");

  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.use((req, res, next) => {
    res.set(headersForPath(rules, req.path));
    next();
  });
  // gzip only, as the byte budgets count it (compression would pick brotli when offered).
  app.use((req, _res, next) => {
    const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
    req.headers["accept-encoding"] = gzip ? "gzip" : "identity";
    next();
  });
  app.use(compression({ threshold: 256 }));
  const notFound: express.RequestHandler = (_req, res) => {
    res.status(404);
    if (fs.existsSync(notFoundPage))
      res.sendFile(notFoundPage, { cacheControl: false, lastModified: false });
    else res.type("text").send("Not Found");
  };
  app.use((req, res, next) => (HOST_FILES.test(req.path) ? notFound(req, res, next) : next()));
  app.use(
    express.static(root, {
      dotfiles: "ignore",
      etag: false,
      lastModified: false,
      cacheControl: false,
    }),
  );
  app.use(notFound);

  const server = await new Promise<ReturnType<typeof app.listen>>((resolve, reject) => {
    const listening = app.listen(options.port ?? 0, "127.0.0.1", () => resolve(listening));
    listening.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
