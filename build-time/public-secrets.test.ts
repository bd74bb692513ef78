import { SERVICE_ROLE_KEY, unsignedJwt } from "./test-keys.test-support";
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { LOCAL_ANON_KEY } from "./local-backend-defaults";
import { findSecretsInDirectory, findSecretsInText } from "./public-secrets";
import { builtSite } from "./built-site.test-support";

jest.setTimeout(60_000);

const root = path.resolve(__dirname, "..");

/** A published folder as the build leaves it: HTML, a bundle holding the anon key, page data, an image. */
function makeBuild(extraFiles: Record<string, string | Buffer> = {}): string {
  return builtSite({
    "index.html": "<!DOCTYPE html><html><body><h1>Schedule Your CTAA Meeting</h1></body></html>",
    "app-5f3c.js": `var e={url:"https://abc.supabase.co",key:"${LOCAL_ANON_KEY}"};fetch(e.url+"/rest/v1/contacts")`,
    "page-data/index/page-data.json": '{"componentChunkName":"component---src-pages-index-tsx"}',
    "static/ab12/photo.png": Buffer.from([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x65, 0x79, 0x4a,
    ]),
    ...extraFiles,
  });
}

// A clean build: "npm run check:secrets exits 0 for a clean build" below.
describe("findSecretsInDirectory", () => {
  it("finds a service-role key in any file type, nested and binary included, naming file and line", async () => {
    const dir = makeBuild({
      "component---src-pages-index-tsx-9a8b.js": `/* chunk */\nconst k="${SERVICE_ROLE_KEY}";`,
      "page-data/sq/d/123.json": JSON.stringify({ key: SERVICE_ROLE_KEY }),
      "static/x/y.map": Buffer.concat([Buffer.from([0, 1, 2]), Buffer.from(SERVICE_ROLE_KEY)]),
    });
    const { findings } = await findSecretsInDirectory(dir);
    expect(findings.map(({ file, line, kind }) => [file, line, kind])).toEqual([
      ["component---src-pages-index-tsx-9a8b.js", 2, "jwt-role"],
      ["page-data/sq/d/123.json", 1, "jwt-role"],
      ["static/x/y.map", 1, "jwt-role"],
    ]);
    expect(findings[0]!.detail).toContain('role "service_role"');
    expect(findings[0]!.detail).not.toContain(SERVICE_ROLE_KEY);
  });
});

describe("findSecretsInText", () => {
  it.each([
    ["a JWT without a role", unsignedJwt({ sub: "user-1" }), "jwt-role", /role null/],
    [
      "an authenticated user's JWT",
      unsignedJwt({ role: "authenticated" }),
      "jwt-role",
      /role "authenticated"/,
    ],
    [
      "a JWT whose claims are not JSON",
      `${unsignedJwt({}).split(".")[0]}.bm90LWpzb24.sig`,
      "jwt-unreadable",
      /cannot be decoded/,
    ],
    [
      "a Supabase secret key",
      "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz",
      "supabase-secret-key",
      /Supabase secret key: sb_secret_/,
    ],
    [
      "a bundled server variable",
      '{SUPABASE_SERVICE_ROLE_KEY:"sb-demo-1234567890"}',
      "server-variable",
      /SUPABASE_SERVICE_ROLE_KEY with a value: sb-demo-1234/,
    ],
    [
      "a Postgres URL with a password",
      '"postgresql://postgres:hunter2-secret@db.abc.supabase.co:5432/postgres"',
      "postgres-password",
      /postgres:\*\*\*\*@db/,
    ],
    ["a private key", "-----BEGIN PRIVATE KEY-----\nMIIE", "private-key", /PRIVATE KEY/],
  ])("flags %s", (_name, text, kind, detail) => {
    const findings = findSecretsInText(text, "file.js");
    expect(findings).toEqual([
      expect.objectContaining({
        file: "file.js",
        line: 1,
        kind,
        detail: expect.stringMatching(detail),
      }),
    ]);
    expect(findings[0]!.detail).not.toContain("hunter2");
  });

  // A server-only variable with a value, however a bundle, a source map or a copied .env writes it.
  it.each([
    "SUPABASE_JWT_SECRET=super-secret-jwt-token-with-at-least-32-characters",
    '\\"SUPABASE_SERVICE_ROLE_KEY\\": \\"hunter2-hunter2\\"',
    'SMTP_PASSWORD="re_9a8b7c6d5e4f"',
    "NOTIFY_WEBHOOK_SECRET: '4f3c2b1a0f9e8d7c6b5a4f3c2b1a0f9e'",
    '{"NOTIFY_CHAT_WEBHOOK_URL":"https://hooks.slack.com/services/T000/B000/XXXX"}',
  ])("flags the server variable in %s", (text) => {
    const variable = /^\W*(\w+)/.exec(text)![1]!;
    const findings = findSecretsInText(text);
    expect(findings).toEqual([
      expect.objectContaining({
        kind: "server-variable",
        detail: expect.stringContaining(variable),
      }),
    ]);
    expect(findings[0]!.detail).not.toContain("hunter2");
  });

  it.each([
    ["the anon key", `key:"${LOCAL_ANON_KEY}"`],
    ["a Postgres URL without a password", "postgres://localhost:5432/app"],
    ["a publishable key", "sb_publishable_ZaGmN3Pj3xK8ahjT5d2L1A_abc"],
    ["text that only looks like a JWT", "eyJub3QiOiJhIGp3dCJ9.eyJ4IjoxfQ.sig"],
    ["the words service role in prose", "Never expose your service_role key in the browser."],
    // supabase-js documents its admin client like this; source maps carry the comment.
    [
      "the variable name without a value",
      "headers: { Authorization: `Bearer ${process.env.SUPABASE_SERVICE_ROLE_KEY}` },",
    ],
    [
      "the notification secrets' names alone",
      "const password = env('SMTP_PASSWORD'); // NOTIFY_WEBHOOK_SECRET is read in config.ts",
    ],
  ])("does not flag %s", (_name, text) => {
    expect(findSecretsInText(text)).toEqual([]);
  });
});

it.each([
  ["exits 0 for a clean build", () => makeBuild(), 0, /No secrets in 4 files/],
  [
    "exits 1 and lists the findings when a service-role key is published",
    () => makeBuild({ "app-5f3c.js": `const key="${SERVICE_ROLE_KEY}"` }),
    1,
    /app-5f3c\.js:1: a JWT with role "service_role"/,
  ],
  [
    "exits 2 when there is no build",
    () => path.join(os.tmpdir(), "no-build"),
    2,
    /run npm run build first/,
  ],
])("npm run check:secrets %s", (_title, build, status, output) => {
  const tsx = path.join(root, "node_modules", ".bin", "tsx");
  const result = spawnSync(tsx, [path.join(root, "tools", "check-secrets.ts"), build()], {
    cwd: root,
    encoding: "utf8",
  });
  expect(result.status).toBe(status);
  expect(result.stdout + result.stderr).toMatch(output);
  expect(result.stdout + result.stderr).not.toContain(SERVICE_ROLE_KEY);
});
