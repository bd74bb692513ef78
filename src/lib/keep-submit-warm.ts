import { warmUpContactsInsert } from "./contacts-warm-up";
import { WARMED_UP_ATTRIBUTE } from "./page-markers";
import { connectionFromBuild, describeConnectionProblem } from "./submit-meeting-request";

/**
 * How often the warm-up is repeated while the visitor is on the form: Chromium keeps a preflight's
 * answer 5 s when it has no Access-Control-Max-Age (hosted Supabase's gateway sends none), so a tap
 * finds it cached and pays only the POST. Each repeat asks for a new answer (contactsWarmUpRequest's
 * `round`), as one the cache serves would not renew it; Chromium drops the old answer when it sends
 * the new question, so a tap in the round trip that follows a repeat pays a preflight (one round
 * trip in 4.8 s: 8 % of taps on venue Wi-Fi, 3 % on slow 4G). Under 5 s, so the old answer is
 * still there until the repeat leaves.
 */
export const KEEP_WARM_EVERY_MS = 4800;
/** How long after reaching the form, or their last focus or input in it, the visitor counts as on it. */
export const ON_FORM_FOR_MS = 30_000;

/**
 * Repeats `warm` (the insert's warm-up, src/lib/contacts-warm-up.ts; its first run was at
 * `lastWarmUp`) every KEEP_WARM_EVERY_MS while the visitor is on the form: its section in view, the
 * tab visible, and a focus or an input in the form in the last ON_FORM_FOR_MS (reaching the form
 * counts as one). A submit stops it until the next focus or input. Loaded with the submit path,
 * when the visitor reaches the form (src/components/meeting-form.tsx). Returns a function that stops it.
 */
export function keepSubmitWarm(
  section: HTMLElement,
  form: HTMLFormElement,
  warm: (round: number) => void,
  lastWarmUp: number,
  win: Window & typeof globalThis = window,
): () => void {
  const doc = win.document;
  const now = () => win.performance.now();
  let inView = false;
  let lastActivity = now();
  let timer: number | undefined;
  let round = 0;
  const onForm = () =>
    inView && doc.visibilityState === "visible" && now() - lastActivity < ON_FORM_FOR_MS;
  const keepWarm = () => {
    if (timer !== undefined || !onForm()) return;
    timer = win.setTimeout(
      () => {
        timer = undefined;
        if (!onForm()) return;
        lastWarmUp = now();
        round += 1;
        warm(round);
        keepWarm();
      },
      Math.max(0, lastWarmUp + KEEP_WARM_EVERY_MS - now()),
    );
  };
  const active = () => {
    lastActivity = now();
    keepWarm();
  };
  const submitted = () => {
    lastActivity = -Infinity;
  };
  const observer = new win.IntersectionObserver((entries) => {
    inView = entries.some((entry) => entry.isIntersecting);
    keepWarm();
  });
  observer.observe(section);
  form.addEventListener("focusin", active);
  form.addEventListener("input", active);
  form.addEventListener("submit", submitted, true);
  doc.addEventListener("visibilitychange", keepWarm);
  return () => {
    observer.disconnect();
    form.removeEventListener("focusin", active);
    form.removeEventListener("input", active);
    form.removeEventListener("submit", submitted, true);
    doc.removeEventListener("visibilitychange", keepWarm);
    if (timer !== undefined) win.clearTimeout(timer);
  };
}

/**
 * Keeps the insert warm with the build's Supabase settings, from the warm-up the page's loader sent
 * when the form neared the viewport (its time in the section's WARMED_UP_ATTRIBUTE); without one
 * (no loader, as in `gatsby develop`), it warms at once. Called by the form when it nears the viewport.
 */
export function keepContactsInsertWarm(
  section: HTMLElement,
  form: HTMLFormElement,
  win: Window & typeof globalThis = window,
): () => void {
  const connection = connectionFromBuild();
  if (describeConnectionProblem(connection)) return () => undefined;
  const warm = (round: number) => void warmUpContactsInsert(connection, win.fetch.bind(win), round);
  const loaderWarmedAt = Number(section.getAttribute(WARMED_UP_ATTRIBUTE) ?? NaN);
  if (!Number.isFinite(loaderWarmedAt)) warm(0);
  return keepSubmitWarm(
    section,
    form,
    warm,
    Number.isFinite(loaderWarmedAt) ? loaderWarmedAt : win.performance.now(),
    win,
  );
}
