import type { Campaign } from "./campaign";
import type { CtaId, SiteEventKind } from "./events";

type Sender = { endpoint: string; campaign: Campaign; fetch: typeof fetch };

let sender: Sender | undefined;

/** The RPC that counts one event: a text/plain body and the key in the query, so no preflight. */
export function siteEventEndpoint(supabaseUrl: string, anonKey: string): string {
  return `${supabaseUrl.replace(/\/+$/, "")}/rest/v1/rpc/record_site_event?apikey=${encodeURIComponent(anonKey)}`;
}

/** Turns counting on for this page view (src/boot/site-analytics.ts decides whether it may). */
export function startCounting(
  endpoint: string,
  campaign: Campaign,
  fetchFunction: typeof fetch,
): void {
  sender = { endpoint, campaign, fetch: fetchFunction };
}

/** Turns counting off again (tests). */
export function stopCounting(): void {
  sender = undefined;
}

/**
 * Counts one event, filed under the visit's campaign; does nothing unless counting was started.
 * One request, never retried, never awaited: `keepalive` lets it finish after the visitor left
 * the page; `no-cors` with a text/plain body makes it a simple request (no preflight) whose
 * answer nobody reads. A refusal or a network failure is dropped.
 */
export function countSiteEvent(
  kind: SiteEventKind,
  extra: { referrer?: string; cta?: CtaId } = {},
): void {
  if (!sender) return;
  const event: Record<string, string> = { kind };
  for (const [name, value] of Object.entries({ ...sender.campaign, ...extra }))
    if (value) event[name] = value;
  try {
    sender
      .fetch(sender.endpoint, {
        method: "POST",
        body: JSON.stringify(event),
        headers: { "Content-Type": "text/plain" },
        keepalive: true,
        mode: "no-cors",
        credentials: "omit",
      })
      .catch(() => undefined);
  } catch {
    // A browser that refuses the request outright (e.g. too much keepalive data in flight).
  }
}
