/**
 * One call of the function: check the shared secret, validate the body, deliver the request
 * it names (if nobody has yet) and then whatever else is due for a retry. Every outcome is
 * recorded in the database through the store; nothing is kept in memory between calls.
 */
import { chatText, composeNotification } from "./compose.ts";
import type { NotifyConfig } from "./config.ts";
import type { ClaimedRequest, DeliveryStore } from "./delivery-store.ts";
import { sendDigest, type DigestStore } from "./digest.ts";
import { parseNotifyCall } from "./payload.ts";
import { composeReport } from "./report.ts";
import { retryDelaySeconds } from "./retry.ts";
import type { SmtpSettings } from "./smtp.ts";
import type { StaffEmail } from "./staff-email.ts";

export interface HandlerDependencies {
  config: NotifyConfig;
  store: DeliveryStore;
  /** The held requests' digest (digest.ts); calls of type DIGEST need it. */
  digests?: DigestStore;
  sendMail: (settings: SmtpSettings, email: StaffEmail) => Promise<string>;
  postChatMessage: (url: string, text: string) => Promise<void>;
  now?: () => Date;
  log?: (line: string) => void;
}

export interface CallResult {
  delivered: number[];
  failed: { id: number; attempt: number; error: string; retryInSeconds: number }[];
  /** The webhook's request was delivered already or is being delivered by another call. */
  skipped: number[];
}

export const SECRET_HEADER = "x-webhook-secret";

const encoder = new TextEncoder();

/** Compares in time that does not depend on where the strings differ. */
export function secretMatches(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let difference = a.length ^ b.length;
  for (let i = 0; i < b.length; i += 1) difference |= (a[i] ?? 0) ^ b[i]!;
  return difference === 0;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json" },
  });
}

function recipients(email: StaffEmail): string {
  return `${email.to.length} recipient${email.to.length === 1 ? "" : "s"}`;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function createHandler(
  dependencies: HandlerDependencies,
): (request: Request) => Promise<Response> {
  const { config, store } = dependencies;
  const now = dependencies.now ?? (() => new Date());
  const log = dependencies.log ?? ((line: string) => console.log(line));

  async function deliver(claimed: ClaimedRequest, result: CallResult): Promise<void> {
    const { request, lease, attempt } = claimed;
    const email = composeNotification(
      request,
      { from: config.from, to: config.to, timeZone: config.timeZone },
      now(),
    );
    try {
      await dependencies.sendMail(config.smtp, email);
    } catch (error) {
      const retryInSeconds = retryDelaySeconds(attempt, config.retry);
      result.failed.push({ id: request.id, attempt, error: message(error), retryInSeconds });
      log(
        `Request #${request.id}: e-mail attempt ${attempt} failed (${message(error)}); next attempt in ${retryInSeconds} s`,
      );
      await store.finish(request.id, lease, { failure: message(error), retryInSeconds });
      return;
    }
    let note: string | undefined;
    if (config.chatWebhookUrl) {
      try {
        await dependencies.postChatMessage(
          config.chatWebhookUrl,
          chatText(request, config.timeZone),
        );
      } catch (error) {
        note = `E-mail sent; ${message(error)}`;
        log(`Request #${request.id}: ${note}`);
      }
    }
    const recorded = await store.finish(request.id, lease, { note });
    result.delivered.push(request.id);
    log(
      `Request #${request.id}: staff notified (attempt ${attempt}, ${recipients(email)})${recorded ? "" : "; the lease had expired, so the record was left to the other attempt"}`,
    );
  }

  return async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return json(405, { error: "POST a Database Webhook payload" });
    if (!secretMatches(request.headers.get(SECRET_HEADER), config.webhookSecret)) {
      return json(401, { error: `missing or wrong ${SECRET_HEADER}` });
    }
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return json(400, { error: "the body is not JSON" });
    }
    const call = parseNotifyCall(body);
    if (!call.ok) return json(400, { error: call.problem });

    if (call.value.kind === "digest") {
      if (!dependencies.digests) return json(501, { error: "no digest store" });
      try {
        return json(
          200,
          await sendDigest({ ...dependencies, digests: dependencies.digests, now, log }),
        );
      } catch (error) {
        log(`Digest state not reachable: ${message(error)}`);
        return json(503, { error: message(error) });
      }
    }
    if (call.value.kind === "report") {
      // The site-analytics report: one e-mail, no delivery state (pg_cron's next period sends the next one).
      const email = composeReport(call.value, { from: config.from, to: config.reportTo }, now());
      try {
        await dependencies.sendMail(config.smtp, email);
      } catch (error) {
        log(
          `Site report ${call.value.report.from}..${call.value.report.to}: not sent (${message(error)})`,
        );
        return json(502, { error: message(error) });
      }
      log(
        `Site report ${call.value.report.from}..${call.value.report.to}: sent to ${recipients(email)}`,
      );
      return json(200, { reported: true });
    }

    const result: CallResult = { delivered: [], failed: [], skipped: [] };
    try {
      if (call.value.kind === "insert") {
        const claimed = await store.claim(call.value.request.id, config.leaseSeconds);
        if (claimed) await deliver(claimed, result);
        else result.skipped.push(call.value.request.id);
      }
      // Every call also retries what is due, so a lost webhook or a missing cron job delays a
      // notification until the next request at worst; it never drops it.
      const due = await store.claimDue(config.sweepBatch, config.leaseSeconds);
      await Promise.all(due.map((claimed) => deliver(claimed, result)));
    } catch (error) {
      log(`Delivery state not reachable: ${message(error)}`);
      return json(503, { error: message(error), ...result });
    }
    return json(200, result);
  };
}
