/**
 * Counts a visit of the landing page without a tracker (docs/analytics.md): the page view with its
 * campaign and referrer domain, each tap on a call to action, the first focus on a form field (a
 * form start) and the requests sent and failed. The `site-analytics` chunk, loaded by the start-up
 * script when the browser is first idle (src/boot/page-boot.ts). No cookie, no storage: what the
 * visit is filed under lives in this page's memory only.
 */
import {
  CTA_ATTRIBUTE,
  FORM_OUTCOME_EVENT,
  MEETING_FORM_ID,
  type CtaId,
  type FormOutcome,
} from "./page-markers";

/** What the page counts (the `kind` of public.record_site_event). */
export type SiteEventKind = "view" | "cta" | "form_start" | FormOutcome;

/** Which campaign brought the visitor: what every counted event of the visit is filed under. */
export type Campaign = { source: string; medium: string; campaign: string };

/**
 * A campaign tag as the database stores it (the constraint in the site-analytics migration):
 * lower case, spaces as "-", only a–z, 0–9, ".", "_" and "-", starting with a letter or digit, at
 * most 40 characters. Anything else is dropped.
 */
export function campaignTag(value: string | null | undefined): string {
  return (value ?? "")
    .trim()
    .toLowerCase()
    .replace(/\s+/g, "-")
    .replace(/[^a-z0-9._-]/g, "")
    .replace(/^[._-]+/, "")
    .slice(0, 40);
}

/**
 * The campaign in a page address's query: `utm_source`, `utm_medium`, `utm_campaign`, or else the
 * short `?src=<tag>` of a printed QR code (source <tag>, medium "qr"). No tag: every field empty.
 */
export function campaignFrom(search: string): Campaign {
  const query = new URLSearchParams(search);
  const source = campaignTag(query.get("utm_source"));
  const medium = campaignTag(query.get("utm_medium"));
  const campaign = campaignTag(query.get("utm_campaign"));
  if (source || medium || campaign) return { source, medium, campaign };
  const src = campaignTag(query.get("src"));
  return { source: src, medium: src ? "qr" : "", campaign: "" };
}

export type BrowserSignals = {
  userAgent: string;
  webdriver?: boolean;
  doNotTrack?: string | null;
  globalPrivacyControl?: boolean;
};

const AUTOMATED =
  /bot|crawl|spider|slurp|headless|lighthouse|pagespeed|phantom|puppeteer|playwright|selenium|prerender|preview/i;

/**
 * Whether this visit may be counted: not with Global Privacy Control or Do Not Track, and not when
 * software drives the browser (`navigator.webdriver`) or it names itself a bot, audit or headless.
 */
export function mayCount(signals: BrowserSignals, windowDoNotTrack?: string | null): boolean {
  if (signals.globalPrivacyControl === true) return false;
  if (signals.doNotTrack === "1" || signals.doNotTrack === "yes" || windowDoNotTrack === "1")
    return false;
  if (signals.webdriver === true) return false;
  return !AUTOMATED.test(signals.userAgent);
}

const DOMAIN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
const withoutWww = (host: string): string => host.replace(/^www\./, "");

/**
 * The domain of the page that linked here, without "www." and nothing of its path or query. Empty
 * without a referrer, from this site itself, or from an address that is no domain name.
 */
export function referrerDomain(referrer: string, ownHost: string): string {
  let host: string;
  try {
    host = withoutWww(new URL(referrer).hostname.toLowerCase());
  } catch {
    return "";
  }
  if (host === withoutWww(ownHost.toLowerCase())) return "";
  return host.length <= 253 && DOMAIN.test(host) ? host : "";
}

/** The RPC that counts one event: a text/plain body and the key in the query, so no preflight. */
export function siteEventEndpoint(supabaseUrl: string, anonKey: string): string {
  return `${supabaseUrl.replace(/\/+$/, "")}/rest/v1/rpc/record_site_event?apikey=${encodeURIComponent(anonKey)}`;
}

type CountEvent = (kind: SiteEventKind, extra?: { referrer?: string; cta?: CtaId }) => void;

/**
 * Counts events of one visit, each under the visit's campaign: one request, never retried nor
 * awaited. `keepalive` lets it finish after the visitor left; `no-cors` with a text/plain body
 * makes it a simple request whose answer nobody reads. A refusal or a network failure is dropped.
 */
export function siteEventCounter(
  endpoint: string,
  campaign: Campaign,
  send: typeof fetch,
): CountEvent {
  return (kind, extra = {}) => {
    const event: Record<string, string> = { kind };
    for (const [name, value] of Object.entries({ ...campaign, ...extra }))
      if (value) event[name] = value;
    const init: RequestInit = {
      method: "POST",
      body: JSON.stringify(event),
      headers: { "Content-Type": "text/plain" },
      keepalive: true,
      mode: "no-cors",
      credentials: "omit",
    };
    try {
      send(endpoint, init).catch(() => undefined);
    } catch {
      // A browser that refuses the request outright (e.g. too much keepalive data in flight).
    }
  };
}

/**
 * Counts this visit. `earlier` are the clicks, focus events and form outcomes the start-up script
 * saw before this chunk arrived; they count as if this had been listening. Nothing for visitors who
 * asked not to be tracked, bots and audits, or in a build without Supabase settings. The focus a
 * call to action moves to the form's heading is no form start.
 */
export function countVisit(doc: Document, earlier: readonly Event[] = []): void {
  const form = doc.getElementById(MEETING_FORM_ID);
  const win = doc.defaultView ?? window;
  const url = process.env.GATSBY_SUPABASE_URL;
  const key = process.env.GATSBY_SUPABASE_ANON_KEY;
  const nav = win.navigator as Navigator & { globalPrivacyControl?: boolean };
  if (!form || !url || !key || !mayCount(nav, (win as { doNotTrack?: string }).doNotTrack)) return;
  const endpoint = siteEventEndpoint(url, key);
  const countSiteEvent = siteEventCounter(
    endpoint,
    campaignFrom(win.location.search),
    win.fetch.bind(win),
  );
  countSiteEvent("view", { referrer: referrerDomain(doc.referrer, win.location.hostname) });

  let started = false;
  const handlers: Record<string, (event: Event) => void> = {
    click(event) {
      const cta = event.target instanceof Element && event.target.closest(`[${CTA_ATTRIBUTE}]`);
      if (cta) countSiteEvent("cta", { cta: cta.getAttribute(CTA_ATTRIBUTE) as CtaId });
    },
    focusin({ target }) {
      const isField =
        target instanceof HTMLElement &&
        target.matches("input, select, textarea") &&
        target.tabIndex >= 0 &&
        form.contains(target);
      if (started || !isField) return;
      started = true;
      countSiteEvent("form_start");
    },
    [FORM_OUTCOME_EVENT](event) {
      const outcome = (event as CustomEvent<unknown>).detail;
      if (outcome === "request_sent" || outcome === "request_failed") countSiteEvent(outcome);
    },
  };
  for (const event of earlier) handlers[event.type]?.(event);
  for (const [type, handler] of Object.entries(handlers)) doc.addEventListener(type, handler);
}
