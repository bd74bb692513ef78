import React, { startTransition, useEffect, useRef, useState } from "react";
import type { FormEvent, ReactNode } from "react";
import { graphql } from "gatsby";
import { FIELD_LIMITS } from "../lib/field-limits";
import { HONEYPOT_FIELD_NAME, isFilledByBot } from "../lib/meeting-request";
import type { ContactRecord } from "../lib/meeting-request";
import { afterNextPaint } from "../lib/after-next-paint";
import {
  earlySubmitPending,
  submitsAreCaught,
  takeEarlySubmit,
  type EarlySubmit,
} from "../lib/early-submit";
import { FORM_NEAR_MARGIN } from "../lib/meeting-form-island";
import { CONTACT_FORM_ID } from "../lib/scroll-to-section";
import { announceFormOutcome } from "../lib/site-analytics/form-outcome";
import {
  insertContactRecordLazily,
  loadSubmitPath,
  sendMeetingAnswers,
} from "../lib/send-meeting-request";
import { whenNearViewport } from "../lib/when-near-viewport";
import { prepareToasts, showToast } from "../lib/toasts";
import * as styles from "./meeting-form.module.css";

type MeetingFormProps = {
  /** The form's words, choices and result messages (content/meeting.yaml). */
  content: Queries.MeetingFormFragment;
  /** Stores the record; replaced in tests. Rejects on any failure. */
  submitRequest?: (record: ContactRecord) => Promise<void>;
  /** Starts loading what submitting needs, when the visitor reaches the form. */
  prepareSubmit?: (form: HTMLFormElement) => void;
  /** Starts the page proof, at the visitor's first focus in the form. */
  startProof?: () => void;
};

/** A value with at least one visible character: the browser refuses whitespace-only answers. */
const NOT_ONLY_SPACES = ".*\\S.*";

/**
 * Runs the submit path (in the built page the loader preloaded it and warmed the way to Supabase
 * when the form neared the viewport: build-time/page-scripts.ts) and keeps that way warm while the
 * visitor is on the form (src/lib/keep-submit-warm.ts).
 */
function prepareSubmitPath(form: HTMLFormElement) {
  import(/* webpackChunkName: "submit-path" */ "../lib/keep-submit-warm")
    .then(({ keepContactsInsertWarm }) =>
      keepContactsInsertWarm(form.closest<HTMLElement>(`#${CONTACT_FORM_ID}`) ?? form, form),
    )
    .catch(() => undefined); // the submit then sends its own preflight
  loadSubmitPath()
    .then(({ loadSupabase }) => loadSupabase())
    .catch(() => undefined); // a failed preload is retried by the submit itself
}

/** The page proof (src/lib/form-proof.ts), solved in a Web Worker while the visitor types; the submit never waits for it. */
function startPageProof() {
  loadSubmitPath()
    .then(({ startFormProof }) => startFormProof())
    .catch(() => undefined); // without a proof the insert carries a pending ticket
}

/**
 * The meeting-request form. The page's form is the one source of truth: React never holds the
 * answers, it reads them with FormData when the visitor submits. So answers typed, autofilled or
 * restored by the browser before this script ran are sent exactly as they show.
 */
export function MeetingForm({
  content,
  submitRequest = insertContactRecordLazily,
  prepareSubmit = prepareSubmitPath,
  startProof = startPageProof,
}: MeetingFormProps) {
  const { form: words, productOptions, meetingTimeOptions } = content;
  // A submit caught before this script ran (src/boot/early-submit.ts), already on its way, is shown
  // from the first render, as the page already shows it.
  const [submitting, setSubmitting] = useState(earlySubmitPending);
  const submittingRef = useRef(false);
  const preparedRef = useRef(false);
  const proofStartedRef = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  // False in the server-rendered page: its button stays disabled until a script can catch a submit,
  // since a native submit would put the visitor's answers in a URL and send them nowhere. In the
  // built page the start-up script already enabled it (src/boot/early-submit.ts); in `gatsby
  // develop` this script does, once hydrated.
  const [ready, setReady] = useState(submitsAreCaught);

  // When the visitor reaches the form (it nears the viewport, or they focus it), load what a
  // submission needs: the toasts, supabase-js. After the next paint: the toast region's render and
  // the downloads must not delay the visitor's tap (INP).
  const prepare = () => {
    if (preparedRef.current) return;
    preparedRef.current = true;
    afterNextPaint(() => {
      prepareToasts();
      if (formRef.current) prepareSubmit(formRef.current);
    });
  };

  // The proof starts at the first focus (again after each sent request), not when the form nears
  // the viewport: a visitor who only scrolls past costs no challenge and no solving.
  const handleFocus = () => {
    prepare();
    if (proofStartedRef.current) return;
    proofStartedRef.current = true;
    afterNextPaint(startProof);
  };

  const submitAnswers = async (
    form: HTMLFormElement,
    { answers, sending: sentEarly }: EarlySubmit,
  ) => {
    submittingRef.current = true;
    try {
      const fromBot = isFilledByBot(answers);
      const sending = sentEarly ?? sendMeetingAnswers(answers, content, submitRequest);
      // The request leaves first (everything before fetch() is microtasks once prepared); the
      // submitting state renders in the next task, not between the tap and the request.
      startTransition(() => setSubmitting(true));
      await sending;
      if (!fromBot) announceFormOutcome(form, "request_sent");
      form.reset();
      // The proof was spent: the next visitor's first focus starts a new one (src/lib/form-proof.ts).
      proofStartedRef.current = false;
      void showToast("success", content.successToast);
    } catch (error) {
      console.error(
        "Meeting request submission failed:",
        error instanceof Error ? error.message : error,
        error,
      );
      announceFormOutcome(form, "request_failed");
      void showToast("error", content.failureToast);
    } finally {
      submittingRef.current = false;
      setSubmitting(false);
    }
  };

  useEffect(() => {
    setReady(true);
    const early = takeEarlySubmit();
    if (early && formRef.current) void submitAnswers(formRef.current, early);
    return formRef.current
      ? whenNearViewport(formRef.current, prepare, FORM_NEAR_MARGIN)
      : undefined;
    // Once, when the form becomes live.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // This very submit, if the page's catcher heard it first (it then disabled the controls).
    const early = takeEarlySubmit();
    if (submittingRef.current) return;
    // Read before the controls are disabled: FormData leaves disabled controls out.
    void submitAnswers(
      event.currentTarget,
      early ?? { answers: new FormData(event.currentTarget) },
    );
  };

  return (
    // Focus inside the form only starts loading supabase-js and the toasts; the form itself stays non-interactive.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <form
      ref={formRef}
      className={styles.form}
      onSubmit={handleSubmit}
      onFocus={handleFocus}
      aria-busy={submitting}
    >
      <div className={styles.row}>
        <Field label={words.fullNameLabel} id="fullName">
          <input
            id="fullName"
            name="fullName"
            type="text"
            autoComplete="name"
            required
            pattern={NOT_ONLY_SPACES}
            title={words.fullNameHint}
            maxLength={FIELD_LIMITS.fullName}
            disabled={submitting}
          />
        </Field>
        <Field label={words.organizationLabel} id="organization">
          <input
            id="organization"
            name="organization"
            type="text"
            autoComplete="organization"
            required
            pattern={NOT_ONLY_SPACES}
            title={words.organizationHint}
            maxLength={FIELD_LIMITS.organization}
            disabled={submitting}
          />
        </Field>
      </div>
      <div className={styles.row}>
        <Field label={words.emailLabel} id="email">
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={FIELD_LIMITS.email}
            disabled={submitting}
          />
        </Field>
        <Field label={words.phoneLabel} id="phone">
          <input
            id="phone"
            name="phone"
            type="tel"
            autoComplete="tel"
            maxLength={FIELD_LIMITS.phone}
            disabled={submitting}
          />
        </Field>
      </div>
      <Field label={words.fleetSizeLabel} id="fleetSize">
        <input
          id="fleetSize"
          name="fleetSize"
          type="text"
          placeholder={words.fleetSizePlaceholder}
          maxLength={FIELD_LIMITS.fleetSize}
          disabled={submitting}
        />
      </Field>

      <fieldset className={styles.group}>
        <legend className={styles.legend}>{words.productsLegend}</legend>
        <div className={styles.choices}>
          {productOptions.map((option, index) => (
            <label key={option.value} className={styles.choice} htmlFor={`product-${index}`}>
              <input
                id={`product-${index}`}
                type="checkbox"
                name="products"
                value={option.value}
                disabled={submitting}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className={styles.group}>
        <legend className={styles.legend}>{words.meetingTimeLegend}</legend>
        <div className={`${styles.choices} ${styles.times}`}>
          {meetingTimeOptions.map((option) => (
            <label
              key={option.value}
              className={styles.choice}
              htmlFor={`meeting-time-${option.value}`}
            >
              <input
                id={`meeting-time-${option.value}`}
                type="radio"
                name="meetingTime"
                value={option.value}
                disabled={submitting}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <Field label={words.challengesLabel} id="challenges">
        <textarea
          id="challenges"
          name="challenges"
          rows={4}
          maxLength={FIELD_LIMITS.challenges}
          disabled={submitting}
        />
      </Field>

      {/* Bots fill every field; people never see this one, keyboards skip it, screen readers ignore it.
          Its label is for bots only, so it is not content. */}
      <div className={styles.honeypot} aria-hidden="true">
        <label htmlFor={HONEYPOT_FIELD_NAME}>Reference code (leave this empty)</label>
        <input
          id={HONEYPOT_FIELD_NAME}
          name={HONEYPOT_FIELD_NAME}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          disabled={submitting}
        />
      </div>

      <button className={styles.submit} type="submit" disabled={submitting || !ready}>
        {submitting ? words.submittingLabel : words.submitLabel}
      </button>
      <p className={styles.note}>{words.requiredNote}</p>
    </form>
  );
}

function Field({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}

export const query = graphql`
  fragment MeetingForm on MeetingContent {
    form {
      fullNameLabel
      fullNameHint
      organizationLabel
      organizationHint
      emailLabel
      phoneLabel
      fleetSizeLabel
      fleetSizePlaceholder
      productsLegend
      meetingTimeLegend
      challengesLabel
      submitLabel
      submittingLabel
      requiredNote
    }
    productOptions {
      value
      label
    }
    meetingTimeOptions {
      value
      label
    }
    successToast {
      title
      text
    }
    failureToast {
      title
      text
    }
    toastRegionLabel
  }
`;
