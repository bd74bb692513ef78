/**
 * The notification secrets are covered by the scan of public/ (build-time/public-secrets.ts):
 * a bundled value of any of them fails the build's secret check.
 */
import { findSecretsInText } from "../../build-time/public-secrets";

test.each([
  ["SMTP_PASSWORD", 'SMTP_PASSWORD="re_9a8b7c6d5e4f"'],
  ["NOTIFY_WEBHOOK_SECRET", "NOTIFY_WEBHOOK_SECRET: '4f3c2b1a0f9e8d7c6b5a4f3c2b1a0f9e'"],
  [
    "NOTIFY_CHAT_WEBHOOK_URL",
    '{"NOTIFY_CHAT_WEBHOOK_URL":"https://hooks.slack.com/services/T000/B000/XXXX"}',
  ],
])("a bundled %s with a value is found", (name, text) => {
  const findings = findSecretsInText(text, "app.js");
  expect(findings).toEqual([
    expect.objectContaining({ kind: "server-variable", detail: expect.stringContaining(name) }),
  ]);
});

test("the names alone (documentation, code that reads them) are not findings", () => {
  expect(
    findSecretsInText(
      "const password = env('SMTP_PASSWORD'); // NOTIFY_WEBHOOK_SECRET is read in config.ts",
      "app.js",
    ),
  ).toEqual([]);
});
