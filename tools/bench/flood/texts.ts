/**
 * What the bench's senders write, in the page's own words (content/meeting.yaml). The attacker
 * varies the real-request corpus (supabase/tests/screening-corpus.ts) so that no content signal
 * marks it; the venue's visitors are varied, except that several ask the same question.
 */
import fs from "node:fs";
import path from "node:path";

import { parse } from "yaml";

import { meetingSchema } from "../../../build-time/content/schemas/meeting";
import { REAL_REQUESTS } from "../../../supabase/tests/screening-corpus";
import {
  buildContactRecord,
  type ContactRecord,
  type MeetingRequestValues,
} from "../../../src/lib/meeting-request";
import { PROJECT_ROOT } from "../../lib/test-build";

/** The form's labels and options and the success toast. */
export const meeting = meetingSchema.parse(
  parse(fs.readFileSync(path.join(PROJECT_ROOT, "content", "meeting.yaml"), "utf8")),
);

/** The answer after `label:` in a corpus message, or "" when it was left empty. */
function answer(message: string, label: string): string {
  const line = message.split("\n").find((candidate) => candidate.startsWith(`${label}: `));
  const value = line?.slice(label.length + 2) ?? "";
  return ["Not provided", "None selected", "Not specified", "None provided"].includes(value)
    ? ""
    : value;
}

const unique = (items: string[]): string[] => [...new Set(items)];
const FIRST_NAMES = unique(REAL_REQUESTS.map((row) => row.name.split(" ")[0]!)).filter(
  (name) => name.length > 2 && !name.endsWith("."),
);
const LAST_NAMES = unique(
  REAL_REQUESTS.map((row) => row.name.split(" ").slice(1).join(" ")),
).filter((name) => name.length > 1);
const ORGANIZATIONS = unique(REAL_REQUESTS.map((row) => row.organization)).filter(
  (name) => name !== "Self",
);
const QUESTIONS = REAL_REQUESTS.map((row) => answer(row.message, "Challenges/Questions")).filter(
  (text) => text.length >= 12,
);
const PHONES = REAL_REQUESTS.map((row) => answer(row.message, "Phone")).filter(Boolean);
const VEHICLES = ["buses", "vans", "vehicles", "cutaways", "paratransit vans", "minibuses"];
/** Each names the fleet's size, so that no two requests share their free text (the repeated-text signal). */
const CONTEXT = [
  (n: number) => `We run ${n} vehicles across three counties.`,
  (n: number) => `Our current contract covers ${n} vehicles and ends next year.`,
  (n: number) => `About ${n * 40} trips a day on ${n} vehicles, mostly same-day bookings.`,
  (n: number) => `We have ${n} drivers across two depots.`,
  (n: number) => `Our board meets next month about our ${n} vans.`,
  (n: number) => `We tried another vendor with our ${n} buses and it did not stick.`,
];

/** Letters only, lower case, for an e-mail address's local part. */
function ascii(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[^A-Za-z]/g, "")
    .toLowerCase();
}

function pick<T>(list: readonly T[], index: number): T {
  return list[((index % list.length) + list.length) % list.length]!;
}

/** The attacker's `index`-th request: plausible, and different from the others in every field. */
export function attackerRequest(index: number, worker: number): ContactRecord {
  const n = index * 7919 + worker * 104_729;
  const first = pick(FIRST_NAMES, n);
  const last = pick(LAST_NAMES, Math.floor(n / FIRST_NAMES.length) + index);
  const organization = pick(ORGANIZATIONS, n * 3 + 1);
  const fleet = 6 + (n % 1400);
  const products = meeting.productOptions
    .filter((_, bit) => (n >> bit) % 2 === 1)
    .map((option) => option.value);
  const question = `${pick(CONTEXT, n >> 3)(fleet)} ${pick(QUESTIONS, n >> 1)}`;
  const domain = `${ascii(organization).slice(0, 18) || "transit"}.example`;
  const values: MeetingRequestValues = {
    fullName: `${first} ${last}`,
    organization,
    email: `${ascii(first) || "info"}.${ascii(last).slice(0, 12) || "office"}${worker}x${index}@${domain}`,
    phone: n % 3 === 0 ? pick(PHONES, n) : "",
    fleetSize: n % 4 === 0 ? "" : `${fleet} ${pick(VEHICLES, n >> 2)}`,
    products,
    meetingTime: n % 5 === 0 ? "" : pick(meeting.meetingTimeOptions, n >> 4).value,
    challenges: n % 9 === 0 ? "" : question,
  };
  return buildContactRecord(values, meeting.meetingTimeOptions);
}

/** What a visitor types into the page's fields (the bench leaves the checkboxes alone). */
export type VisitorAnswers = ReturnType<typeof visitorAnswers>;

/** The question several of the venue's visitors ask in the same words (20+ characters). */
const SHARED_QUESTION = "Can you show the same-day paratransit booking demo?";

/** The bench's real visitor `index` during an attack: one question each. */
export function visitorAnswers(index: number, run: string) {
  return {
    fullName: `Real Visitor ${index}`,
    organization: "Valley Regional Transit",
    email: `real.visitor.${index}.${run}@agency.example`,
    fleetSize: "",
    challenges: `We run ${40 + index} paratransit vans and would like a demo at the booth.`,
  };
}

/** The venue's visitor `index`: a person from the corpus, asking SHARED_QUESTION when `shared`. */
export function venueAnswers(index: number, run: string, shared: boolean): VisitorAnswers {
  const person = pick(REAL_REQUESTS, index);
  const own =
    answer(person.message, "Challenges/Questions") ||
    `Stopping by after the ${pick(["keynote", "lunch", "panel"], index)}, ${index}.`;
  return {
    fullName: person.name,
    organization: person.organization,
    email: `${ascii(person.name.split(" ")[0]!) || "visitor"}.venue${index}.${run}@agency.example`,
    fleetSize: answer(person.message, "Fleet Size"),
    challenges: shared ? SHARED_QUESTION : own,
  };
}
