/**
 * A meeting request: the form's answers, the `contacts` row they become (spec, section 3) and
 * sending it. The form lives in the page, so its answers are read from it at the submit.
 */

import type { ContactRecord } from "./submit-meeting-request";

export type { ContactRecord };

/** What the visitor typed into the meeting-request form. */
export type MeetingRequestValues = {
  fullName: string;
  organization: string;
  email: string;
  phone: string;
  fleetSize: string;
  /** Values of the selected product options, in the order the form lists them. */
  products: string[];
  /** Value of the chosen meeting-time option, or "" when none is chosen. */
  meetingTime: string;
  challenges: string;
};

export type ChoiceOption = { value: string; label: string };

export const EMPTY_MEETING_REQUEST: MeetingRequestValues = {
  fullName: "",
  organization: "",
  email: "",
  phone: "",
  fleetSize: "",
  products: [],
  meetingTime: "",
  challenges: "",
};

/**
 * The labelled lines of the stored `message`, and what an empty answer says. Staff read them in
 * the Supabase dashboard; visitors never see them. They are the record's format, not page copy:
 * they stay here, stable across expos, when the form's labels in content/meeting.yaml change
 * (and MESSAGE_MAX_LENGTH in field-limits.ts counts on their length).
 */
export const MESSAGE_LINES = {
  phone: { label: "Phone", empty: "Not provided" },
  fleetSize: { label: "Fleet Size", empty: "Not provided" },
  products: { label: "Products of Interest", empty: "None selected" },
  meetingTime: { label: "Preferred Meeting Time", empty: "Not specified" },
  challenges: { label: "Challenges/Questions", empty: "None provided" },
} as const;

/**
 * Turns form values into the stored record. Every optional answer gets its own labelled line,
 * and an empty answer says so.
 */
export function buildContactRecord(
  values: MeetingRequestValues,
  meetingTimeOptions: readonly ChoiceOption[],
): ContactRecord {
  const products = values.products.map((product) => product.trim()).filter(Boolean);
  const meetingTime = values.meetingTime.trim();
  const meetingTimeLabel = meetingTime
    ? (meetingTimeOptions.find((option) => option.value === meetingTime)?.label ?? meetingTime)
    : "";

  const line = (field: keyof typeof MESSAGE_LINES, answer: string) =>
    `${MESSAGE_LINES[field].label}: ${answer.trim() || MESSAGE_LINES[field].empty}`;
  const lines = [
    line("phone", values.phone),
    line("fleetSize", values.fleetSize),
    line("products", products.join(", ")),
    line("meetingTime", meetingTimeLabel),
    line("challenges", values.challenges),
  ];

  return {
    name: values.fullName.trim(),
    email: values.email.trim(),
    organization: values.organization.trim(),
    message: lines.join("\n"),
  };
}

/** Named so that no browser or password manager autofills it for a person. */
export const HONEYPOT_FIELD_NAME = "reference_code";

/** People never see the honeypot field, so an answer in it means a bot filled the form. */
export function isFilledByBot(form: FormData): boolean {
  const value = form.get(HONEYPOT_FIELD_NAME);
  return typeof value === "string" && value !== "";
}

/**
 * The visitor's answers as the form holds them. Products keep the order the form lists them in; an
 * unknown product or meeting time is dropped.
 */
export function meetingRequestFromForm(
  form: FormData,
  productOptions: readonly ChoiceOption[],
  meetingTimeOptions: readonly ChoiceOption[],
): MeetingRequestValues {
  const text = (name: keyof MeetingRequestValues) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const ticked = new Set(
    form.getAll("products").filter((value): value is string => typeof value === "string"),
  );
  const meetingTime = text("meetingTime");
  return {
    fullName: text("fullName"),
    organization: text("organization"),
    email: text("email"),
    phone: text("phone"),
    fleetSize: text("fleetSize"),
    products: productOptions.map((option) => option.value).filter((value) => ticked.has(value)),
    meetingTime: meetingTimeOptions.some((option) => option.value === meetingTime)
      ? meetingTime
      : "",
    challenges: text("challenges"),
  };
}

/**
 * Stores one meeting request through supabase-js (REST only), loading the submit path first: a
 * chunk of its own that the loader preloads when the visitor nears the form.
 */
async function insertContactRecordLazily(record: ContactRecord): Promise<void> {
  const { insertContactRecord } = await import(
    /* webpackChunkName: "submit-path" */ "./submit-meeting-request"
  );
  await insertContactRecord(record);
}

/**
 * Sends a submitted form's answers as one meeting request, calling `submitRequest` in this task;
 * nothing when a bot filled the honeypot.
 */
export function sendMeetingAnswers(
  answers: FormData,
  {
    productOptions,
    meetingTimeOptions,
  }: Pick<Queries.MeetingFormFragment, "productOptions" | "meetingTimeOptions">,
  submitRequest: (record: ContactRecord) => Promise<void> = insertContactRecordLazily,
): Promise<void> {
  if (isFilledByBot(answers)) return Promise.resolve();
  const values = meetingRequestFromForm(answers, productOptions, meetingTimeOptions);
  return submitRequest(buildContactRecord(values, meetingTimeOptions));
}
