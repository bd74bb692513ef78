import React, { useEffect, useRef, useState } from "react";
import type { ChangeEvent, FormEvent } from "react";
import { toast } from "react-toastify/unstyled";
import { FIELD_LIMITS } from "../lib/field-limits";
import { buildContactRecord, EMPTY_MEETING_REQUEST, meetingRequestFromForm } from "../lib/meeting-request";
import type { ChoiceOption, ContactRecord, MeetingRequestValues } from "../lib/meeting-request";
import { insertContactRecord, loadSupabase } from "../lib/submit-meeting-request";
import { SUBMIT_FAILURE_TOAST, SUBMIT_SUCCESS_TOAST } from "../lib/toast-texts";
import { ToastMessage } from "./toast-message";
import * as styles from "./meeting-form.module.css";

type MeetingFormProps = {
  productOptions: readonly ChoiceOption[];
  meetingTimeOptions: readonly ChoiceOption[];
  /** Stores the record; replaced in tests. Rejects on any failure. */
  submitRequest?: (record: ContactRecord) => Promise<void>;
  /** Starts loading what submitting needs, when the visitor first reaches the form. */
  prepareSubmit?: () => void;
};

type TextField = "fullName" | "organization" | "email" | "phone" | "fleetSize" | "challenges";

/** A value with at least one visible character: the browser refuses whitespace-only answers. */
const NOT_ONLY_SPACES = ".*\\S.*";
/** Named so that no browser or password manager autofills it for a person. */
export const HONEYPOT_FIELD_NAME = "reference_code";

function prepareSupabase() {
  loadSupabase().catch(() => undefined); // a failed preload is retried by the submit itself
}

export function MeetingForm({
  productOptions,
  meetingTimeOptions,
  submitRequest = insertContactRecord,
  prepareSubmit = prepareSupabase,
}: MeetingFormProps) {
  const [values, setValues] = useState<MeetingRequestValues>(EMPTY_MEETING_REQUEST);
  const [submitting, setSubmitting] = useState(false);
  const submittingRef = useRef(false);
  const preparedRef = useRef(false);
  const honeypotRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // False in the server-rendered page: its button stays disabled until this script runs, since a
  // native submit would put the visitor's answers in a URL and send them nowhere.
  const [ready, setReady] = useState(false);

  useEffect(() => {
    // Answers typed, autofilled or restored by the browser before this script ran are in the page
    // but not in React's state: adopt them (once), so what the visitor sees is what gets sent.
    if (ready || !formRef.current) return;
    setValues(meetingRequestFromForm(new FormData(formRef.current), productOptions, meetingTimeOptions));
    setReady(true);
  }, [ready, productOptions, meetingTimeOptions]);

  const updateText = (field: TextField) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const { value } = event.target;
    setValues((current) => ({ ...current, [field]: value }));
  };

  const toggleProduct = (event: ChangeEvent<HTMLInputElement>) => {
    const { value, checked } = event.target;
    setValues((current) => {
      const selected = new Set(current.products);
      if (checked) selected.add(value);
      else selected.delete(value);
      // Keep the order the form lists the products in, whatever order they were ticked in.
      return { ...current, products: productOptions.map((option) => option.value).filter((option) => selected.has(option)) };
    });
  };

  const chooseMeetingTime = (event: ChangeEvent<HTMLInputElement>) => {
    const { value } = event.target;
    setValues((current) => ({ ...current, meetingTime: value }));
  };

  const handleFocus = () => {
    if (preparedRef.current) return;
    preparedRef.current = true;
    prepareSubmit();
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submittingRef.current) return;
    submittingRef.current = true;
    setSubmitting(true);

    const isBot = Boolean(honeypotRef.current?.value);
    try {
      if (!isBot) await submitRequest(buildContactRecord(values, meetingTimeOptions));
      setValues(EMPTY_MEETING_REQUEST);
      if (honeypotRef.current) honeypotRef.current.value = "";
      toast.success(<ToastMessage {...SUBMIT_SUCCESS_TOAST} />);
    } catch (error) {
      console.error("Meeting request submission failed:", error instanceof Error ? error.message : error, error);
      toast.error(<ToastMessage {...SUBMIT_FAILURE_TOAST} />);
    } finally {
      submittingRef.current = false;
      setSubmitting(false);
    }
  };

  return (
    // Focus inside the form only starts loading supabase-js; the form itself stays non-interactive.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <form ref={formRef} className={styles.form} onSubmit={handleSubmit} onFocus={handleFocus} aria-busy={submitting}>
      <div className={styles.row}>
        <Field label="Full Name *" id="fullName">
          <input
            id="fullName"
            name="fullName"
            type="text"
            autoComplete="name"
            required
            pattern={NOT_ONLY_SPACES}
            title="Enter your full name."
            maxLength={FIELD_LIMITS.fullName}
            value={values.fullName}
            onChange={updateText("fullName")}
            disabled={submitting}
          />
        </Field>
        <Field label="Transit Agency/Organization *" id="organization">
          <input
            id="organization"
            name="organization"
            type="text"
            autoComplete="organization"
            required
            pattern={NOT_ONLY_SPACES}
            title="Enter your transit agency or organization."
            maxLength={FIELD_LIMITS.organization}
            value={values.organization}
            onChange={updateText("organization")}
            disabled={submitting}
          />
        </Field>
      </div>
      <div className={styles.row}>
        <Field label="Email *" id="email">
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={FIELD_LIMITS.email}
            value={values.email}
            onChange={updateText("email")}
            disabled={submitting}
          />
        </Field>
        <Field label="Phone" id="phone">
          <input
            id="phone"
            name="phone"
            type="tel"
            autoComplete="tel"
            maxLength={FIELD_LIMITS.phone}
            value={values.phone}
            onChange={updateText("phone")}
            disabled={submitting}
          />
        </Field>
      </div>
      <Field label="Fleet Size" id="fleetSize">
        <input
          id="fleetSize"
          name="fleetSize"
          type="text"
          placeholder="e.g., 25 vehicles"
          maxLength={FIELD_LIMITS.fleetSize}
          value={values.fleetSize}
          onChange={updateText("fleetSize")}
          disabled={submitting}
        />
      </Field>

      <fieldset className={styles.group}>
        <legend className={styles.legend}>Products of Interest</legend>
        <div className={styles.choices}>
          {productOptions.map((option, index) => (
            <label key={option.value} className={styles.choice} htmlFor={`product-${index}`}>
              <input
                id={`product-${index}`}
                type="checkbox"
                name="products"
                value={option.value}
                checked={values.products.includes(option.value)}
                onChange={toggleProduct}
                disabled={submitting}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className={styles.group}>
        <legend className={styles.legend}>Preferred Meeting Time</legend>
        <div className={`${styles.choices} ${styles.times}`}>
          {meetingTimeOptions.map((option) => (
            <label key={option.value} className={styles.choice} htmlFor={`meeting-time-${option.value}`}>
              <input
                id={`meeting-time-${option.value}`}
                type="radio"
                name="meetingTime"
                value={option.value}
                checked={values.meetingTime === option.value}
                onChange={chooseMeetingTime}
                disabled={submitting}
              />
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <Field label="Challenges/Questions" id="challenges">
        <textarea
          id="challenges"
          name="challenges"
          rows={4}
          maxLength={FIELD_LIMITS.challenges}
          value={values.challenges}
          onChange={updateText("challenges")}
          disabled={submitting}
        />
      </Field>

      {/* Bots fill every field; people never see this one, keyboards skip it, screen readers ignore it. */}
      <div className={styles.honeypot} aria-hidden="true">
        <label htmlFor={HONEYPOT_FIELD_NAME}>Reference code (leave this empty)</label>
        <input
          ref={honeypotRef}
          id={HONEYPOT_FIELD_NAME}
          name={HONEYPOT_FIELD_NAME}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          disabled={submitting}
        />
      </div>

      <button className={styles.submit} type="submit" disabled={submitting || !ready}>
        {submitting ? "Scheduling..." : "Schedule My CTAA Meeting"}
      </button>
      <p className={styles.note}>Fields marked * are required. We use your details only to arrange your meeting.</p>
    </form>
  );
}

function Field({ label, id, children }: { label: string; id: string; children: React.ReactNode }) {
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}
