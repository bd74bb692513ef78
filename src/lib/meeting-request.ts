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

/** One row of the `contacts` table, as the browser inserts it. */
export type ContactRecord = {
  name: string;
  email: string;
  organization: string;
  message: string;
};

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
 * Turns form values into the stored record. Staff read `message` in the Supabase dashboard,
 * so every optional answer gets its own labelled line, and an empty answer says so.
 */
export function buildContactRecord(values: MeetingRequestValues, meetingTimeOptions: readonly ChoiceOption[]): ContactRecord {
  const products = values.products.map((product) => product.trim()).filter(Boolean);
  const meetingTime = values.meetingTime.trim();
  const meetingTimeLabel = meetingTime
    ? (meetingTimeOptions.find((option) => option.value === meetingTime)?.label ?? meetingTime)
    : "";

  const lines = [
    `Phone: ${orFallback(values.phone, "Not provided")}`,
    `Fleet Size: ${orFallback(values.fleetSize, "Not provided")}`,
    `Products of Interest: ${products.length > 0 ? products.join(", ") : "None selected"}`,
    `Preferred Meeting Time: ${orFallback(meetingTimeLabel, "Not specified")}`,
    `Challenges/Questions: ${orFallback(values.challenges, "None provided")}`,
  ];

  return {
    name: values.fullName.trim(),
    email: values.email.trim(),
    organization: values.organization.trim(),
    message: lines.join("\n"),
  };
}

function orFallback(answer: string, fallback: string): string {
  const trimmed = answer.trim();
  return trimmed === "" ? fallback : trimmed;
}

/** The form's fields by `name`, as FormData (or a page's form) holds them. */
type NamedValues = { get(name: string): FormDataEntryValue | null; getAll(name: string): FormDataEntryValue[] };

/**
 * Reads the form's values from the page itself. Before the page's script has run, a visitor can
 * type, and browsers autofill or restore answers; those are in the form but not in React's state.
 * Products keep the order the form lists them in; an unknown product or meeting time is dropped.
 */
export function meetingRequestFromForm(
  form: NamedValues,
  productOptions: readonly ChoiceOption[],
  meetingTimeOptions: readonly ChoiceOption[],
): MeetingRequestValues {
  const text = (name: keyof MeetingRequestValues) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const ticked = new Set(form.getAll("products").filter((value): value is string => typeof value === "string"));
  const meetingTime = text("meetingTime");
  return {
    fullName: text("fullName"),
    organization: text("organization"),
    email: text("email"),
    phone: text("phone"),
    fleetSize: text("fleetSize"),
    products: productOptions.map((option) => option.value).filter((value) => ticked.has(value)),
    meetingTime: meetingTimeOptions.some((option) => option.value === meetingTime) ? meetingTime : "",
    challenges: text("challenges"),
  };
}
