import { MEETING_FORM_ISLAND_ID } from "../lib/meeting-form-island";
import { campaignFrom } from "../lib/site-analytics/campaign";
import {
  CTA_ATTRIBUTE,
  FORM_OUTCOME_EVENT,
  type CtaId,
  type FormOutcome,
} from "../lib/site-analytics/events";
import { mayCount } from "../lib/site-analytics/may-count";
import { referrerDomain } from "../lib/site-analytics/referrer";
import { countSiteEvent, siteEventEndpoint, startCounting } from "../lib/site-analytics/send";

const FIELD = "input, select, textarea";

/**
 * Counts this visit of the landing page (docs/analytics.md): the page view with its campaign and
 * referrer domain, each tap on a call to action (`data-cta`), and the first focus on one of the
 * form's fields (a form start; the focus a call to action moves to the form's heading is not
 * one). `earlier` are the clicks and focus events page-boot saw before this chunk arrived
 * (src/boot/site-analytics.ts); they count as if this had been listening. Requests sent and
 * failed are announced by the form (FORM_OUTCOME_EVENT). Nothing when the visitor set Global Privacy Control or Do Not Track,
 * for bots and audits, or in a build without Supabase settings. No cookie, no storage: what the
 * visit is filed under lives in this page's memory only.
 */
export function countVisit(doc: Document, earlier: readonly Event[] = []): void {
  const form = doc.getElementById(MEETING_FORM_ISLAND_ID);
  const win = doc.defaultView ?? window;
  const url = process.env.GATSBY_SUPABASE_URL;
  const key = process.env.GATSBY_SUPABASE_ANON_KEY;
  const nav = win.navigator as Navigator & { globalPrivacyControl?: boolean };
  if (!form || !url || !key || !mayCount(nav, (win as Window & { doNotTrack?: string }).doNotTrack))
    return;
  startCounting(
    siteEventEndpoint(url, key),
    campaignFrom(win.location.search),
    win.fetch.bind(win),
  );
  countSiteEvent("view", { referrer: referrerDomain(doc.referrer, win.location.hostname) });

  const onClick = (event: Event) => {
    const cta = event.target instanceof Element ? event.target.closest(`[${CTA_ATTRIBUTE}]`) : null;
    if (cta) countSiteEvent("cta", { cta: cta.getAttribute(CTA_ATTRIBUTE) as CtaId });
  };
  let started = false;
  const onFocus = (event: Event) => {
    const field = event.target;
    if (
      started ||
      !(field instanceof HTMLElement) ||
      !field.matches(FIELD) ||
      field.tabIndex < 0 ||
      !form.contains(field)
    )
      return;
    started = true;
    doc.removeEventListener("focusin", onFocus);
    countSiteEvent("form_start");
  };
  const onOutcome = (event: Event) => {
    const outcome = (event as CustomEvent<unknown>).detail;
    if (outcome === "request_sent" || outcome === "request_failed")
      countSiteEvent(outcome as FormOutcome);
  };
  const handlers: Record<string, (event: Event) => void> = {
    click: onClick,
    focusin: onFocus,
    [FORM_OUTCOME_EVENT]: onOutcome,
  };
  for (const event of earlier) handlers[event.type]?.(event);
  doc.addEventListener("click", onClick);
  doc.addEventListener(FORM_OUTCOME_EVENT, onOutcome);
  if (!started) doc.addEventListener("focusin", onFocus);
}
