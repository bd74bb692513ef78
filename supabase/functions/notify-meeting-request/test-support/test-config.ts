/** A complete function configuration for handler-level tests: plain SMTP to a receiver on this machine. */
import type { NotifyConfig } from "../config.ts";

export function testConfig(
  webhookSecret: string,
  smtpPort: number,
  overrides: Partial<NotifyConfig> = {},
): NotifyConfig {
  return {
    webhookSecret,
    smtp: { host: "127.0.0.1", port: smtpPort, security: "plain", timeoutMs: 2_000 },
    from: { address: "noreply@example-transit.com" },
    to: [{ address: "sales@example-transit.com" }],
    reportTo: [{ address: "marketing@example-transit.com" }],
    chatWebhookUrl: undefined,
    timeZone: "UTC",
    supabaseUrl: "http://unused",
    serviceKey: "unused",
    retry: { baseSeconds: 30, maxSeconds: 1800 },
    leaseSeconds: 120,
    sweepBatch: 10,
    ...overrides,
  };
}
