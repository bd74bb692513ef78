import React, { useEffect, useRef } from "react";
import { graphql } from "gatsby";
import { FIELD_LIMITS } from "../lib/field-limits";
import { makeFormLive, type FormSeams } from "../lib/live-form";
import { HONEYPOT_FIELD_NAME, type ChoiceOption } from "../lib/meeting-request";
import { MEETING_FORM_CONTENT_ID, MEETING_FORM_ID } from "../lib/page-markers";
import { serializeForScriptElement } from "../lib/script-data";
import * as styles from "./meeting-form.module.css";

type Words = Queries.MeetingFormFragment["form"];
type TextField = {
  name: "fullName" | "organization" | "email" | "phone" | "fleetSize";
  label: keyof Words;
  hint?: keyof Words;
  placeholder?: keyof Words;
  type: "text" | "email" | "tel";
  autoComplete?: string;
  required?: boolean;
  pattern?: string;
};

/** A value with at least one visible character: the browser refuses whitespace-only answers. */
const NOT_ONLY_SPACES = ".*\\S.*";

/** The text fields in the form's order: two rows of two, then the fleet size. */
const TEXT_FIELDS: readonly TextField[] = [
  {
    name: "fullName",
    label: "fullNameLabel",
    hint: "fullNameHint",
    type: "text",
    autoComplete: "name",
    required: true,
    pattern: NOT_ONLY_SPACES,
  },
  {
    name: "organization",
    label: "organizationLabel",
    hint: "organizationHint",
    type: "text",
    autoComplete: "organization",
    required: true,
    pattern: NOT_ONLY_SPACES,
  },
  { name: "email", label: "emailLabel", type: "email", autoComplete: "email", required: true },
  { name: "phone", label: "phoneLabel", type: "tel", autoComplete: "tel" },
  { name: "fleetSize", label: "fleetSizeLabel", placeholder: "fleetSizePlaceholder", type: "text" },
];

/** What the form's script needs of the content: not the rest of its section (heading, picture). */
function wordsOnly(content: Queries.MeetingFormFragment): Queries.MeetingFormFragment {
  const { form, productOptions, meetingTimeOptions, successToast, failureToast } = content;
  const { toastRegionLabel } = content;
  return { form, productOptions, meetingTimeOptions, successToast, failureToast, toastRegionLabel };
}

/**
 * The meeting-request form, rendered into the HTML with its words beside it as JSON. React never
 * runs it in the built page: the start-up script makes it work (src/lib/live-form.ts), as the effect
 * below does in `gatsby develop` and in tests (where `seams` replace the network).
 */
export function MeetingForm({
  content,
  ...seams
}: { content: Queries.MeetingFormFragment } & FormSeams) {
  const { form: words, productOptions, meetingTimeOptions } = content;
  const formRef = useRef<HTMLFormElement>(null);
  // Once: the form's own script owns the DOM from then on.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => makeFormLive(formRef.current!, content, seams), []);

  const field = ({ name, label, hint, placeholder, ...input }: TextField) => (
    <div key={name} className={styles.field}>
      <label className={styles.label} htmlFor={name}>
        {words[label]}
      </label>
      <input
        id={name}
        name={name}
        title={hint && words[hint]}
        placeholder={placeholder && words[placeholder]}
        maxLength={FIELD_LIMITS[name]}
        {...input}
      />
    </div>
  );
  const choices = (
    legend: string,
    options: readonly ChoiceOption[],
    type: "checkbox" | "radio",
    name: "products" | "meetingTime",
  ) => (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={type === "radio" ? `${styles.choices} ${styles.times}` : styles.choices}>
        {options.map((option, index) => (
          <label key={option.value} className={styles.choice} htmlFor={`${name}-${index}`}>
            <input id={`${name}-${index}`} type={type} name={name} value={option.value} />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );

  return (
    <div id={MEETING_FORM_ID}>
      <script
        type="application/json"
        id={MEETING_FORM_CONTENT_ID}
        dangerouslySetInnerHTML={{ __html: serializeForScriptElement(wordsOnly(content)) }}
      />
      <form ref={formRef} className={styles.form} aria-busy="false">
        <div className={styles.row}>{TEXT_FIELDS.slice(0, 2).map(field)}</div>
        <div className={styles.row}>{TEXT_FIELDS.slice(2, 4).map(field)}</div>
        {field(TEXT_FIELDS[4]!)}
        {choices(words.productsLegend, productOptions, "checkbox", "products")}
        {choices(words.meetingTimeLegend, meetingTimeOptions, "radio", "meetingTime")}
        <div className={styles.field}>
          <label className={styles.label} htmlFor="challenges">
            {words.challengesLabel}
          </label>
          <textarea
            id="challenges"
            name="challenges"
            rows={4}
            maxLength={FIELD_LIMITS.challenges}
          />
        </div>

        {/* Bots fill every field; people never see this one, keyboards skip it, screen readers
          ignore it. Its label is for bots only, so it is not content. */}
        <div className={styles.honeypot} aria-hidden="true">
          <label htmlFor={HONEYPOT_FIELD_NAME}>Reference code (leave this empty)</label>
          <input
            id={HONEYPOT_FIELD_NAME}
            name={HONEYPOT_FIELD_NAME}
            type="text"
            tabIndex={-1}
            autoComplete="off"
          />
        </div>

        <button className={styles.submit} type="submit" disabled>
          {words.submitLabel}
        </button>
        <p className={styles.note}>{words.requiredNote}</p>
      </form>
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
