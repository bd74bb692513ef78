/**
 * What every e2e test gets: the local backend the build talks to, as a new visitor finds it, and
 * the page's diagnostics, which fail the test on a console error or a Content-Security-Policy
 * violation it did not declare (the canary is in security-headers.spec.ts).
 */
import { test as base, expect, type Page, type Request } from "@playwright/test";
import {
  readRequests,
  startLocalBackend,
  type LocalBackend,
  type LocalBackendOptions,
  type StoredRequest,
} from "../../local-backend";

/** Where the build sends requests (tools/test-e2e.ts picks the port and passes it on). */
export const BACKEND_URL = `http://127.0.0.1:${process.env.E2E_BACKEND_PORT}`;

/** The local backend on the build's port, in memory. Tests run one at a time (one worker). */
export class Backend {
  readonly url = BACKEND_URL;
  private running: LocalBackend | undefined;
  private notifications: LocalBackendOptions["notifications"];

  async start(): Promise<LocalBackend> {
    this.running ??= await startLocalBackend({
      port: Number(process.env.E2E_BACKEND_PORT),
      notifications: this.notifications,
    });
    return this.running;
  }

  /** Takes the backend down: the browser then gets "connection refused". */
  async stop(): Promise<void> {
    await this.running?.close();
    this.running = undefined;
  }

  /** The backend again, for the current test, with these staff notifications (or none). */
  async restartWith(notifications?: LocalBackendOptions["notifications"]): Promise<LocalBackend> {
    await this.stop();
    this.notifications = notifications;
    return this.start();
  }

  /** The database as superuser (bypasses grants and row-level security). */
  get db(): LocalBackend["db"] {
    if (!this.running) throw new Error("The local backend is stopped.");
    return this.running.db;
  }

  /** Every stored meeting request, newest first. */
  rows(): Promise<StoredRequest[]> {
    return readRequests(this.db);
  }

  /** Plain settings, and nothing stored or counted: each test sees only what it caused. */
  async reset(): Promise<void> {
    if (this.notifications) await this.restartWith();
    const { db } = await this.start();
    await db.exec(`
      delete from public.contacts;
      delete from private.form_challenges_issued;
      delete from private.site_event_counts;
      delete from private.site_event_clients;
      delete from private.site_event_salts;
    `);
  }
}

/** What the browser reported during a test. */
export type PageDiagnostics = {
  /** console.error lines and uncaught exceptions. */
  errors: string[];
  /** Content-Security-Policy violations (never allowed). */
  cspViolations: string[];
  /** Declares console errors this test expects (for example the 404 page's log). */
  allowErrors(...patterns: RegExp[]): void;
  /** The page's POSTs of a meeting request to the backend. */
  insertRequests: Request[];
  /** The page's warm-ups of the same endpoint: a POST of no rows (src/lib/contacts-warm-up.ts). */
  warmUpRequests: Request[];
};

export const test = base.extend<
  { freshBackend: void; diagnostics: PageDiagnostics },
  { backend: Backend }
>({
  backend: [
    async ({}, use) => {
      const backend = new Backend();
      await use(backend);
      await backend.stop();
    },
    { scope: "worker" },
  ],

  freshBackend: [
    async ({ backend }, use) => {
      await backend.reset();
      await use();
    },
    { auto: true },
  ],

  diagnostics: [
    async ({ context }, use, testInfo) => {
      const errors: string[] = [];
      const cspViolations: string[] = [];
      const allowed: RegExp[] = [];
      const insertRequests: Request[] = [];
      const warmUpRequests: Request[] = [];

      await context.exposeBinding("__e2eReportCspViolation", (_source, violation: string) => {
        cspViolations.push(violation);
      });
      await context.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          const report = (window as unknown as { __e2eReportCspViolation?: (v: string) => void })
            .__e2eReportCspViolation;
          report?.(
            `${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"} on ${location.pathname}` +
              (event.sample ? ` — sample: ${event.sample}` : "") +
              (event.sourceFile ? ` (${event.sourceFile}:${event.lineNumber})` : ""),
          );
        });
      });
      context.on("console", (message) => {
        if (message.type() === "error")
          errors.push(`console.error on ${pathOf(message.page())}: ${message.text()}`);
      });
      context.on("weberror", (error) => errors.push(`uncaught error: ${error.error().message}`));
      context.on("request", (request) => {
        if (
          request.method() === "POST" &&
          request.url().startsWith(`${BACKEND_URL}/rest/v1/contacts`)
        )
          (isWarmUp(request) ? warmUpRequests : insertRequests).push(request);
      });

      await use({
        errors,
        cspViolations,
        insertRequests,
        warmUpRequests,
        allowErrors: (...patterns) => allowed.push(...patterns),
      });

      if (testInfo.status !== testInfo.expectedStatus) return; // the test's own failure says more
      expect(cspViolations, "Content-Security-Policy violations reported by the browser").toEqual(
        [],
      );
      const unexpected = errors.filter((line) => !allowed.some((pattern) => pattern.test(line)));
      expect(unexpected, "unexpected console errors or uncaught exceptions").toEqual([]);
    },
    { auto: true },
  ],
});

/** The page's warm-up of the insert endpoint: a POST of no rows. */
export function isWarmUp(request: Request): boolean {
  return request.method() === "POST" && request.postData() === "[]";
}

function pathOf(page: Page | null): string {
  return page ? new URL(page.url(), "http://unknown").pathname : "(no page)";
}

export { expect };
