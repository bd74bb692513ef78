/**
 * What a first visit of a page costs over the wire, as Lighthouse's "total byte weight" counts it:
 * for `npm run audit` and the e2e budget test.
 */
import type { Browser, Response } from "@playwright/test";

type TransferEntry = { url: string; status: number; bytes: number; bodyBytes: number };

/**
 * Loads `/` in a fresh context, waits for a quiet network, adds up every response. `scriptBodyBytes`:
 * compressed bytes of the scripts loaded before any interaction, prefetched ones included.
 */
export async function measureFirstLoad(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
) {
  const context = await browser.newContext({
    baseURL,
    viewport,
    deviceScaleFactor: viewport.width < 600 ? 2 : 1,
  });
  const page = await context.newPage();
  const finished: Array<Promise<TransferEntry & { script?: string; isScript: boolean }>> = [];
  page.on("response", (response: Response) => {
    finished.push(
      (async () => {
        const request = response.request();
        await response.finished().catch(() => undefined);
        const sizes = await request.sizes();
        // By content type too: a script the page prefetches (the form's, at the first paint) arrives
        // as resource type "other", and its later <script> is served from the cache.
        const isScript =
          request.resourceType() === "script" ||
          /javascript/.test(response.headers()["content-type"] ?? "");
        const script = isScript ? await response.text().catch(() => "") : undefined;
        return {
          url: new URL(response.url()).pathname,
          status: response.status(),
          // A response served from the cache (a prefetched script) reports a negative body size: nothing went over the wire.
          bytes:
            sizes.responseBodySize < 0 ? 0 : sizes.responseBodySize + sizes.responseHeadersSize,
          bodyBytes: Math.max(0, sizes.responseBodySize),
          script,
          isScript,
        };
      })(),
    );
  });
  await page.goto("/", { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1000);
  const entries = await Promise.all(finished);
  await context.close();
  return {
    entries: entries.map(({ script: _script, isScript: _isScript, ...entry }) => entry),
    totalBytes: entries.reduce((sum, entry) => sum + entry.bytes, 0),
    scriptBodyBytes: entries
      .filter((entry) => entry.isScript)
      .reduce((sum, entry) => sum + entry.bodyBytes, 0),
    scriptBodies: entries.flatMap((entry) => (entry.script === undefined ? [] : [entry.script])),
  };
}
