/** What the browser says about the visitor's wishes and about itself. */
export type BrowserSignals = {
  userAgent: string;
  webdriver?: boolean;
  doNotTrack?: string | null;
  globalPrivacyControl?: boolean;
};

/** Crawlers, link previews, audits (Lighthouse, PageSpeed Insights) and headless browsers, by their user agent. */
const AUTOMATED =
  /bot|crawl|spider|slurp|headless|lighthouse|pagespeed|phantom|puppeteer|playwright|selenium|prerender|preview/i;

/**
 * Whether this visit may be counted: not when the visitor set Global Privacy Control or Do Not
 * Track, and not when the browser is driven by software (`navigator.webdriver`: Playwright,
 * Puppeteer, Selenium) or names itself a bot, an audit or a headless browser.
 */
export function mayCount(signals: BrowserSignals, windowDoNotTrack?: string | null): boolean {
  if (signals.globalPrivacyControl === true) return false;
  if (signals.doNotTrack === "1" || signals.doNotTrack === "yes" || windowDoNotTrack === "1")
    return false;
  if (signals.webdriver === true) return false;
  return !AUTOMATED.test(signals.userAgent);
}
