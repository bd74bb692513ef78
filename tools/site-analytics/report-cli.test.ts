/**
 * `npm run report` against a local backend with a data folder: events recorded over HTTP the way
 * the page sends them (POST /rest/v1/rpc/record_site_event, text/plain, the key in the query),
 * read back as JSON and text through the running backend and from the files once it stopped,
 * and the e-mail written for the mail catcher.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { LOCAL_ANON_KEY } from "../../build-time/local-backend-defaults";
import { startLocalBackend, type LocalBackend } from "../../local-backend";
import { readMail } from "../../local-backend/notifications/mail-catcher";
import { isoDate, type SiteReport } from "./report-data";

jest.setTimeout(120_000);

const root = path.resolve(__dirname, "..", "..");
const tsx = path.join(root, "node_modules", ".bin", "tsx");

/** Runs the command without blocking this process (the backend it asks runs here). */
function report(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(tsx, [path.join(root, "tools", "report.ts"), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  return new Promise((resolve) =>
    child.on("close", (status) => resolve({ status, stdout, stderr })),
  );
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "site-report-"));
let backend: LocalBackend | undefined;

afterAll(async () => {
  await backend?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function send(backendUrl: string, event: object): Promise<number> {
  const response = await fetch(
    `${backendUrl}/rest/v1/rpc/record_site_event?apikey=${encodeURIComponent(LOCAL_ANON_KEY)}`,
    {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify(event),
    },
  );
  return response.status;
}

test("the report of recorded events: JSON, text and e-mail, with the backend running and after it stopped", async () => {
  const dataDir = path.join(dir, "data");
  backend = await startLocalBackend({ port: 0, dataDir });
  const flyer = { source: "flyer", medium: "qr" };
  for (const event of [
    { kind: "view", ...flyer },
    { kind: "view", ...flyer },
    { kind: "cta", ...flyer, cta: "hero" },
    { kind: "form_start", ...flyer },
    { kind: "request_sent", ...flyer },
    { kind: "view", referrer: "news.example.org" },
  ]) {
    expect(await send(backend.url, event)).toBe(204);
  }
  expect(await send(backend.url, { kind: "view", source: "<script>" })).toBe(400);

  // What the report holds is site_analytics_report's (supabase/tests/site-analytics.test.ts);
  // here: the command's range, its JSON and text, the e-mail, with and without the backend.
  const today = isoDate(new Date());
  const running = await report(["--json", "--data-dir", dataDir]);
  expect(running.stderr).toBe("");
  expect(running.status).toBe(0);
  const json = JSON.parse(running.stdout) as SiteReport;
  expect(json.to).toBe(today);
  expect(json.days).toHaveLength(7);
  expect(json.totals).toMatchObject({ views: 3, ctaTaps: 1, formStarts: 1, requests: 1 });

  const mailDir = path.join(dir, "mail");
  const text = await report(["--from", today, "--to", today, "--mail", "--data-dir", dataDir], {
    LOCAL_MAIL_DIR: mailDir,
  });
  expect(text.status).toBe(0);
  expect(text.stdout).toMatch(/^Website report (\d{4}-\d{2}-\d{2}) to \1 \(UTC days\)/);
  const [file] = fs.readdirSync(mailDir);
  expect(file).toMatch(new RegExp(`_site-report-${today}-${today}\\.eml$`));
  expect(text.stderr).toContain(path.join(mailDir, file!));
  const eml = fs.readFileSync(path.join(mailDir, file!), "utf8");
  expect((await readMail(eml)).headers.get("subject")).toMatch(
    /^Website report, .*: 3 views, 1 meeting request$/,
  );
  expect(eml).toMatch(/^Content-Type: multipart\/alternative/m);

  await backend.close();
  backend = undefined;
  const fromFiles = await report(["--json", "--data-dir", dataDir]);
  expect(fromFiles.status).toBe(0);
  expect(JSON.parse(fromFiles.stdout)).toEqual(json);
});

test.each([
  [["--from", "2026-02-30"], 2, "Usage: npm run report"],
  [["--from", "2026-11-20", "--to", "2026-11-19"], 2, "Usage: npm run report"],
  [["--to", "yesterday"], 2, "Usage: npm run report"],
  [["--week"], 2, "Usage: npm run report"],
  [["--data-dir", path.join(dir, "nothing-here")], 1, "No local database in"],
])("%j exits %d: %s", async (args, status, message) => {
  const result = await report(args);
  expect(result.status).toBe(status);
  expect(result.stderr).toContain(message);
});
