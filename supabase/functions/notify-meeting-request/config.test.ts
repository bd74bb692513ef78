import assert from "node:assert/strict";

import { loadConfig } from "./config.ts";
import { ADDRESSING } from "./test-support/harness.ts";

const valid: Record<string, string> = {
  NOTIFY_WEBHOOK_SECRET: "s".repeat(64),
  NOTIFY_EMAIL_TO: "Sales <sales@example-transit.com>, ops@example-transit.com",
  NOTIFY_EMAIL_FROM: "Expo website <noreply@example-transit.com>",
  SMTP_HOST: "smtp.example.com",
  SMTP_USER: "resend",
  SMTP_PASSWORD: "hunter2-hunter2",
  SUPABASE_URL: "https://ref.supabase.co/",
  SUPABASE_SERVICE_ROLE_KEY: "sb_secret_xxxxxxxxxxxx",
};

function load(overrides: Record<string, string | undefined>) {
  const env = { ...valid, ...overrides };
  return loadConfig((name) => env[name]);
}

Deno.test("a complete configuration: port 465 with implicit TLS, several recipients", () => {
  const result = load({});
  assert.ok(result.ok);
  assert.deepEqual(result.config.smtp, {
    host: "smtp.example.com",
    port: 465,
    security: "implicit-tls",
    username: "resend",
    password: "hunter2-hunter2",
    timeoutMs: 15_000,
  });
  assert.deepEqual(result.config.to, ADDRESSING.to);
  assert.deepEqual(result.config.reportTo, ADDRESSING.to);
  assert.deepEqual(result.config.from, ADDRESSING.from);
  assert.equal(result.config.supabaseUrl, "https://ref.supabase.co");
  assert.equal(result.config.timeZone, "UTC");
  assert.equal(result.config.chatWebhookUrl, undefined);
  assert.deepEqual(result.config.retry, { baseSeconds: 30, maxSeconds: 1800 });
});

// Plain SMTP only to a catcher on this machine; any other port of a real server must offer STARTTLS.
const security: [Record<string, string | undefined>, string, number][] = [
  [{ SMTP_HOST: "127.0.0.1", SMTP_PORT: "54325" }, "plain", 54325],
  [{ SMTP_PORT: "2587" }, "starttls", 2587],
  [{ SMTP_HOST: "localhost", SMTP_PORT: "465" }, "implicit-tls", 465],
];

for (const [env, expected, port] of security) {
  Deno.test(`${env.SMTP_HOST ?? "smtp.example.com"}:${port} is ${expected}`, () => {
    const result = load(env);
    assert.ok(result.ok);
    assert.equal(result.config.smtp.security, expected);
    assert.equal(result.config.smtp.port, port);
  });
}

Deno.test("every problem is named at once, without the secrets", () => {
  const result = load({
    NOTIFY_WEBHOOK_SECRET: "short-secret",
    NOTIFY_EMAIL_TO: "sales@example-transit.com, not an address",
    NOTIFY_EMAIL_FROM: undefined,
    SMTP_PASSWORD: undefined,
    NOTIFY_CHAT_WEBHOOK_URL: "http://hooks.example.com/x",
    NOTIFY_TIME_ZONE: "Mars/Olympus",
    SUPABASE_SERVICE_ROLE_KEY: "",
    NOTIFY_RETRY_BASE_SECONDS: "-1",
  });
  assert.ok(!result.ok);
  assert.deepEqual(
    result.problems.map((problem) => problem.split(" ")[0]),
    [
      "NOTIFY_WEBHOOK_SECRET",
      "NOTIFY_EMAIL_TO",
      "NOTIFY_EMAIL_FROM",
      "SMTP_USER",
      "NOTIFY_CHAT_WEBHOOK_URL",
      "NOTIFY_TIME_ZONE",
      "SUPABASE_SERVICE_ROLE_KEY",
      "NOTIFY_RETRY_BASE_SECONDS",
    ],
  );
  assert.doesNotMatch(result.problems.join("\n"), /short-secret|hunter2/);
});
