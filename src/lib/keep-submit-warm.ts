import { warmUpContactsInsert } from "./contacts-warm-up";
import { WARMED_UP_ATTRIBUTE } from "./page-markers";
import {
  connectionFromBuild,
  describeConnectionProblem,
  loadSupabase,
} from "./submit-meeting-request";

/**
 * How often the warm-up repeats while the visitor is on the form: Chromium keeps a preflight's
 * answer 5 s without Access-Control-Max-Age (hosted Supabase sends none), so a tap pays only the POST.
 */
export const KEEP_WARM_EVERY_MS = 4800;
/** How long after reaching the form, or their last focus or input in it, the visitor counts as on it. */
export const ON_FORM_FOR_MS = 30_000;

/**
 * Repeats `warm(round)` (the insert's warm-up; the last one was at `lastWarmUp`) every
 * KEEP_WARM_EVERY_MS while the visitor is on the form: its section in view, the tab visible, and a
 * focus or an input in the form in the last ON_FORM_FOR_MS (reaching the form counts as one). A
 * submit stops it until the next focus or input. Returns a function that stops it.
 */
export function keepSubmitWarm(
  section: HTMLElement,
  form: HTMLFormElement,
  warm: (round: number) => void,
  lastWarmUp: number,
): () => void {
  const now = () => performance.now();
  let inView = false;
  let lastActivity = now();
  let timer: number | undefined;
  let round = 0;
  const onForm = () =>
    inView && document.visibilityState === "visible" && now() - lastActivity < ON_FORM_FOR_MS;
  const keepWarm = () => {
    if (timer !== undefined || !onForm()) return;
    const repeat = () => {
      timer = undefined;
      if (!onForm()) return;
      lastWarmUp = now();
      warm((round += 1));
      keepWarm();
    };
    timer = window.setTimeout(repeat, Math.max(0, lastWarmUp + KEEP_WARM_EVERY_MS - now()));
  };
  const active = () => {
    lastActivity = now();
    keepWarm();
  };
  const submitted = () => {
    lastActivity = -Infinity;
  };
  const observer = new IntersectionObserver((entries) => {
    inView = entries.some((entry) => entry.isIntersecting);
    keepWarm();
  });
  observer.observe(section);
  const listeners: Array<[EventTarget, string, () => void, boolean?]> = [
    [form, "focusin", active],
    [form, "input", active],
    [form, "submit", submitted, true],
    [document, "visibilitychange", keepWarm],
  ];
  for (const [target, type, listener, capture] of listeners)
    target.addEventListener(type, listener, capture);
  return () => {
    observer.disconnect();
    for (const [target, type, listener, capture] of listeners)
      target.removeEventListener(type, listener, capture);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * Loads supabase-js and keeps the insert warm with the build's Supabase settings, going on from the
 * warm-up the loader sent when the form neared the viewport (its time in the section's
 * WARMED_UP_ATTRIBUTE); without one (no loader, as in `gatsby develop`) it warms at once.
 */
export function prepareContactsInsert(section: HTMLElement, form: HTMLFormElement): () => void {
  const connection = connectionFromBuild();
  if (describeConnectionProblem(connection)) return () => undefined;
  loadSupabase().catch(() => undefined); // the submit retries it
  const warm = (round: number) => void warmUpContactsInsert(connection, round);
  const loaderWarmedAt = Number(section.getAttribute(WARMED_UP_ATTRIBUTE) ?? NaN);
  if (Number.isFinite(loaderWarmedAt)) return keepSubmitWarm(section, form, warm, loaderWarmedAt);
  warm(0);
  return keepSubmitWarm(section, form, warm, performance.now());
}
