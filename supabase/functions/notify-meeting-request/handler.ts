/**
 * One call of the function: check the shared secret and the body, then do what it asks. An
 * INSERT or a SWEEP delivers the request it names (if nobody has yet), then whatever else is
 * due for a retry; a DIGEST sends the due digest; a REPORT sends the site report. Every outcome
 * is recorded in the database through the store; nothing is kept in memory between calls.
 */
import { createHash, timingSafeEqual } from "node:crypto";

import { bookingLinks } from "./booking-links.ts";
import {
  chatText,
  composeDigest,
  composeNotification,
  plural,
  type BookingLinks,
} from "./compose.ts";
import { loadConfig, type NotifyConfig } from "./config.ts";
import { restDeliveryStore, restRpc, type DeliveryStore, type Outcome } from "./delivery-store.ts";
import type { StaffEmail } from "./mail.ts";
import { parseNotifyCall, type ClaimedRequest, type ReportCall } from "./payload.ts";
import { composeReport } from "./report.ts";
import { sendMail } from "./smtp.ts";

export interface HandlerDependencies {
  config: NotifyConfig;
  store: DeliveryStore;
  bookingLinks?: (requestIds: number[]) => Promise<BookingLinks>;
  log?: (line: string) => void;
}

type Failure = { id: number; attempt: number; error: string; retryInSeconds: number };

export interface CallResult {
  delivered: number[];
  failed: Failure[];
  /** The webhook's request was delivered already or is being delivered by another call. */
  skipped: number[];
}

export const SECRET_HEADER = "x-webhook-secret";

/** Seconds to wait after the given (1-based) attempt failed: 30, 60, 120, … 1800, 1800, … */
export function retryDelaySeconds(attempt: number, policy: NotifyConfig["retry"]): number {
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  return Math.min(policy.baseSeconds * 2 ** exponent, policy.maxSeconds);
}

/** In constant time. */
function secretMatches(given: string | null, expected: string): boolean {
  const hash = (text: string) => createHash("sha256").update(text).digest();
  return given !== null && timingSafeEqual(hash(given), hash(expected));
}

/** Posts to a Slack- or Teams-style incoming webhook (`{ "text": … }`). */
async function postChatMessage(url: string, text: string): Promise<void> {
  // The URL is a credential (anyone holding it can post): errors name its host only.
  const host = new URL(url).host;
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text }),
    signal: AbortSignal.timeout(10_000),
  }).catch((error) => {
    throw new Error(`chat webhook at ${host} not reached: ${message(error)}`);
  });
  const answer = (await response.text()).slice(0, 200);
  if (!response.ok)
    throw new Error(`chat webhook at ${host} answered HTTP ${response.status} ${answer}`.trim());
}

const json = (status: number, body: unknown) => Response.json(body, { status });

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

const LEASE_LOST = "; the lease had expired, so the record was left to the other attempt";

export function createHandler(dependencies: HandlerDependencies) {
  const { config, store } = dependencies;
  const log = dependencies.log ?? ((line: string) => console.log(line));
  const settings = { from: config.from, to: config.to, timeZone: config.timeZone };

  /** The links for an e-mail about these requests; without them when they cannot be stored. */
  async function linksFor(ids: number[]): Promise<BookingLinks | undefined> {
    try {
      return await dependencies.bookingLinks?.(ids);
    } catch (error) {
      log(`Booking links for #${ids.join(", #")} not stored (${message(error)}); sent without`);
      return undefined;
    }
  }

  /** Sends the e-mail; a failure is recorded with this attempt's back-off, and returned. */
  async function send(
    email: StaffEmail,
    { id, attempt, what }: { id: number; attempt: number; what: string },
    finish: (outcome: Outcome) => Promise<boolean>,
  ): Promise<Failure | undefined> {
    try {
      await sendMail(config.smtp, email);
      return undefined;
    } catch (error) {
      const failed = { id, attempt, error: message(error) };
      const retryInSeconds = retryDelaySeconds(attempt, config.retry);
      log(
        `${what} attempt ${attempt} failed (${failed.error}); next attempt in ${retryInSeconds} s`,
      );
      await finish({ failure: failed.error, retryInSeconds });
      return { ...failed, retryInSeconds };
    }
  }

  async function deliver(claimed: ClaimedRequest, result: CallResult): Promise<void> {
    const { id, lease_token: lease, attempt } = claimed;
    const email = composeNotification(claimed, settings, new Date(), await linksFor([id]));
    const finish = (outcome: Outcome) => store.finish(id, lease, outcome);
    const failed = await send(email, { id, attempt, what: `Request #${id}: e-mail` }, finish);
    if (failed) {
      result.failed.push(failed);
      return;
    }
    const outcome: Outcome = {};
    if (config.chatWebhookUrl) {
      try {
        await postChatMessage(config.chatWebhookUrl, chatText(claimed, config.timeZone));
      } catch (error) {
        outcome.note = `E-mail sent; ${message(error)}`;
        log(`Request #${id}: ${outcome.note}`);
      }
    }
    const recorded = await finish(outcome);
    result.delivered.push(id);
    const recipients = plural(email.to.length, "recipient");
    log(
      `Request #${id}: staff notified (attempt ${attempt}, ${recipients})${recorded ? "" : LEASE_LOST}`,
    );
  }

  async function deliverDue(requestId: number | undefined): Promise<CallResult> {
    const result: CallResult = { delivered: [], failed: [], skipped: [] };
    if (requestId !== undefined) {
      const claimed = await store.claim(requestId, config.leaseSeconds);
      if (claimed) await deliver(claimed, result);
      else result.skipped.push(requestId);
    }
    // Every call also retries what is due, so a lost webhook or a missing cron job delays a
    // notification until the next request at worst; it never drops it.
    const due = await store.claimDue(config.sweepBatch, config.leaseSeconds);
    await Promise.all(due.map((claimed) => deliver(claimed, result)));
    return result;
  }

  async function sendDigest(): Promise<{ sent?: object; failed?: Failure }> {
    const digest = await store.claimDigest(config.leaseSeconds);
    if (!digest) return {};
    const { digest_id: id, lease_token: lease, attempt, request_count: requests } = digest;
    const finish = (outcome: Outcome) => store.finishDigest(id, lease, outcome);
    const links = await linksFor(digest.requests.map((held) => held.id));
    const email = composeDigest(digest, settings, new Date(), links);
    const failed = await send(email, { id, attempt, what: `Digest #${id}:` }, finish);
    if (failed) return { failed };
    const recorded = await finish({});
    log(
      `Digest #${id}: ${plural(requests, "held request")} reported to staff${recorded ? "" : LEASE_LOST}`,
    );
    return { sent: { id, requests } };
  }

  /** The site-analytics report: one e-mail, no delivery state (the next period sends the next). */
  async function sendReport(call: ReportCall): Promise<Response> {
    const email = composeReport(call, { from: config.from, to: config.reportTo }, new Date());
    const what = `Site report ${call.report.from}..${call.report.to}`;
    try {
      await sendMail(config.smtp, email);
    } catch (error) {
      log(`${what}: not sent (${message(error)})`);
      return json(502, { error: message(error) });
    }
    log(`${what}: sent to ${plural(email.to.length, "recipient")}`);
    return json(200, { reported: true });
  }

  return async (request: Request): Promise<Response> => {
    if (request.method !== "POST") return json(405, { error: "POST a Database Webhook payload" });
    if (!secretMatches(request.headers.get(SECRET_HEADER), config.webhookSecret))
      return json(401, { error: `missing or wrong ${SECRET_HEADER}` });
    const body = await request.json().catch(() => undefined);
    if (body === undefined) return json(400, { error: "the body is not JSON" });
    const call = parseNotifyCall(body);
    if (!call.ok) return json(400, { error: call.problem });
    if (call.value.kind === "report") return await sendReport(call.value);
    try {
      if (call.value.kind === "digest") return json(200, await sendDigest());
      const requestId = call.value.kind === "insert" ? call.value.request.id : undefined;
      return json(200, await deliverDue(requestId));
    } catch (error) {
      log(`Delivery state not reachable: ${message(error)}`);
      return json(503, { error: message(error) });
    }
  };
}

/** The handler wired to the real world: settings from the environment, the REST store, SMTP. */
export function handlerFromEnvironment(env: (name: string) => string | undefined) {
  const loaded = loadConfig(env);
  if (!loaded.ok) {
    console.error(`notify-meeting-request is not configured:\n  ${loaded.problems.join("\n  ")}`);
    // Requests stay pending (and visible as such) until the settings are fixed.
    return () => Promise.resolve(json(500, { error: "not configured: see the function's logs" }));
  }
  const { config } = loaded;
  return createHandler({
    config,
    store: restDeliveryStore(config.supabaseUrl, config.serviceKey),
    bookingLinks: config.siteUrl
      ? bookingLinks(config.siteUrl, restRpc(config.supabaseUrl, config.serviceKey))
      : undefined,
  });
}
