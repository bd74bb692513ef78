import assert from "node:assert/strict";

import { loadConfig } from "./config.ts";

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
  if (!result.ok) return;
  assert.deepEqual(result.config.smtp, {
    host: "smtp.example.com",
    port: 465,
    security: "implicit-tls",
    username: "resend",
    password: "hunter2-hunter2",
    timeoutMs: 15_000,
  });
  assert.deepEqual(result.config.to, [
    { name: "Sales", address: "sales@example-transit.com" },
    { address: "ops@example-transit.com" },
  ]);
  assert.deepEqual(result.config.from, {
    name: "Expo website",
    address: "noreply@example-transit.com",
  });
  assert.equal(result.config.supabaseUrl, "https://ref.supabase.co");
  assert.equal(result.config.timeZone, "UTC");
  assert.equal(result.config.chatWebhookUrl, undefined);
});

Deno.test(
  "plain SMTP to a catcher on this machine only; any other port of a real server must offer STARTTLS",
  () => {
    const local = load({
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: "54325",
      SMTP_USER: undefined,
      SMTP_PASSWORD: undefined,
    });
    assert.ok(
      local.ok && local.config.smtp.security === "plain" && local.config.smtp.port === 54325,
    );
    const remote = load({ SMTP_PORT: "2587" });
    assert.ok(
      remote.ok && remote.config.smtp.security === "starttls" && remote.config.smtp.port === 2587,
    );
    const localTls = load({ SMTP_HOST: "localhost", SMTP_PORT: "465" });
    assert.ok(localTls.ok && localTls.config.smtp.security === "implicit-tls");
  },
);

Deno.test("every problem is named at once, without the values", () => {
  const result = load({
    NOTIFY_WEBHOOK_SECRET: "short-secret",
    NOTIFY_EMAIL_TO: "sales@example-transit.com, not an address",
    NOTIFY_EMAIL_FROM: undefined,
    SMTP_PASSWORD: undefined,
    NOTIFY_CHAT_WEBHOOK_URL: "http://hooks.example.com/x",
    NOTIFY_TIME_ZONE: "Mars/Olympus",
    SUPABASE_SERVICE_ROLE_KEY: "",
  });
  assert.ok(!result.ok);
  if (result.ok) return;
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
    ],
  );
  assert.doesNotMatch(result.problems.join("\n"), /short-secret|hunter2/);
});
