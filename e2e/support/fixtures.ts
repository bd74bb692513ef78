import { test as base, expect, type Page, type Request } from "@playwright/test";
import {
  readRequests,
  startLocalBackend,
  type LocalBackend,
  type LocalBackendOptions,
  type StoredRequest,
} from "../../local-backend";

/**
 * The local backend the build talks to, on the port baked into the build (E2E_BACKEND_PORT).
 * In memory; emptied before every test, so a test sees exactly the rows it caused.
 */
export type BackendControl = {
  url: string;
  /** Every stored meeting request, newest first. */
  rows(): Promise<StoredRequest[]>;
  /** Takes the backend down: the browser then gets "connection refused". Restarted before the next test. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** The backend again, with staff notifications or other screening settings, for this test only. */
  restartWith(
    options: Pick<LocalBackendOptions, "notifications" | "screening">,
  ): Promise<LocalBackend>;
};

/** What the browser reported during a test: asserted empty at the end unless allowed. */
export type PageDiagnostics = {
  /** console.error lines and uncaught exceptions. */
  errors: string[];
  /** Content-Security-Policy violations (never allowed). */
  cspViolations: string[];
  /** Declares console errors this test expects (for example the 404 page's log). */
  allowErrors(...patterns: RegExp[]): void;
  /** Requests from the page to the backend's insert endpoint with a request in them (POST only). */
  insertRequests: Request[];
  /** The page's warm-ups of that endpoint: the same POST with no rows (`[]`, src/lib/contacts-warm-up.ts). */
  warmUpRequests: Request[];
};

type WorkerFixtures = { backendProcess: BackendHolder };
type TestFixtures = { backend: BackendControl; diagnostics: PageDiagnostics };

class BackendHolder {
  private instance: LocalBackend | undefined;
  /** Set while a test runs the backend with options of its own (restartWith). */
  private special = false;
  constructor(readonly port: number) {}

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(
    options: Pick<LocalBackendOptions, "notifications" | "screening"> = {},
  ): Promise<LocalBackend> {
    this.instance ??= await startLocalBackend({
      port: this.port,
      host: "127.0.0.1",
      dataDir: undefined,
      anonKey: anonKey(),
      ...options,
    });
    return this.instance;
  }

  async restartWith(
    options: Pick<LocalBackendOptions, "notifications" | "screening">,
  ): Promise<LocalBackend> {
    await this.stop();
    this.special = true;
    return this.start(options);
  }

  /** The plain backend again after a test that had its own. */
  async startPlain(): Promise<void> {
    if (this.special) await this.stop();
    this.special = false;
    await this.start();
  }

  async stop(): Promise<void> {
    const running = this.instance;
    this.instance = undefined;
    await running?.close();
  }

  running(): LocalBackend | undefined {
    return this.instance;
  }
}

function anonKey(): string | undefined {
  return process.env.E2E_ANON_KEY || undefined;
}

function backendPort(): number {
  const port = Number(process.env.E2E_BACKEND_PORT);
  if (!Number.isInteger(port) || port <= 0)
    throw new Error("E2E_BACKEND_PORT is not set: run the tests with `npm run test:e2e`.");
  return port;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  backendProcess: [
    async ({}, use) => {
      const holder = new BackendHolder(backendPort());
      await holder.start();
      await use(holder);
      await holder.stop();
    },
    { scope: "worker" },
  ],

  backend: [
    async ({ backendProcess }, use) => {
      const db = (await backendProcess.start()).db;
      // Each test starts as a visitor new to the site: no requests, no challenges counted for 127.0.0.1.
      await db.exec("delete from public.contacts; delete from private.form_challenges_issued;");
      await use({
        url: backendProcess.url,
        rows: async () => {
          const running = backendProcess.running();
          return readRequests(running ? running.db : db);
        },
        stop: () => backendProcess.stop(),
        start: async () => {
          await backendProcess.start();
        },
        restartWith: (options) => backendProcess.restartWith(options),
      });
      await backendProcess.startPlain(); // the next test finds it up again, as it was
    },
    { auto: true },
  ],

  diagnostics: [
    async ({ context, backend }, use, testInfo) => {
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
          errors.push(`console.error on ${safePath(message.page())}: ${message.text()}`);
      });
      context.on("weberror", (error) => errors.push(`uncaught error: ${error.error().message}`));
      context.on("request", (request) => {
        if (
          request.method() === "POST" &&
          request.url().startsWith(`${backend.url}/rest/v1/contacts`)
        ) {
          (isWarmUp(request) ? warmUpRequests : insertRequests).push(request);
        }
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

/** The page's warm-up of the insert endpoint: a POST of no rows (src/lib/contacts-warm-up.ts). */
export function isWarmUp(request: Request): boolean {
  return request.method() === "POST" && request.postData() === "[]";
}

function safePath(page: Page | null): string {
  if (!page) return "(no page)";
  try {
    return new URL(page.url()).pathname;
  } catch {
    return page.url();
  }
}

export { expect };
