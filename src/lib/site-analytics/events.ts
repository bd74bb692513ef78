/** What the page counts (the `kind` of public.record_site_event). */
export type SiteEventKind = "view" | "cta" | "form_start" | "request_sent" | "request_failed";

/** The calls to action, as their links carry them in `data-cta` (the database knows the same list: offering-1 to offering-99). */
export type CtaId = "hero" | "consulting" | "expo" | "footer" | `offering-${number}`;

/** The attribute that names a call to action for counting. */
export const CTA_ATTRIBUTE = "data-cta";

/** The DOM event the form dispatches when a request was sent or failed (counted by src/boot/count-visit.ts). */
export const FORM_OUTCOME_EVENT = "site-analytics:form-outcome";

export type FormOutcome = "request_sent" | "request_failed";
