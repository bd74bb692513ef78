/**
 * Text for measuring the screening's content signals: realistic requests as the page writes them
 * (awkward ones included) and the spam scripts send to contact forms, kept as data in
 * screening-corpus.json. Used by screening.test.ts and `npm run bench:flood`; not served.
 */
import type { ContactRow } from "../../local-backend/test-support/helpers";
import {
  buildContactRecord,
  EMPTY_MEETING_REQUEST,
  type MeetingRequestValues,
} from "../../src/lib/meeting-request";
import corpus from "./screening-corpus.json";

/** A request as the page's buildContactRecord writes it, from answers in the form's shape. */
function fromPage(answers: Partial<MeetingRequestValues>, index: number): ContactRow {
  const values = { ...EMPTY_MEETING_REQUEST, ...answers };
  const firstName = values.fullName
    .split(" ")[0]!
    .toLowerCase()
    .replace(/[^a-z]/g, "");
  return buildContactRecord(
    { ...values, email: `${firstName || "visitor"}.${index}@agency.example` },
    [],
  );
}

/** Realistic requests from people: the content signals should flag none of them. */
export const REAL_REQUESTS: readonly ContactRow[] = corpus.real.map(fromPage);

/** A contact-form spam flood's rows: each text under rotating senders (the bench's text too). */
export function spamRequest(index: number): ContactRow {
  const text = corpus.spam[index % corpus.spam.length]!;
  return {
    name: ["John Smith", "Marketing Team", "qwrtzpsdfg", "Alex", "SEO Expert"][index % 5]!,
    organization: ["Digital Agency", "Rank Boost LLC", "zxcvbnmlkj", "Growth Partners", "n/a"][
      index % 5
    ]!,
    email: `promo${index}@spam-sender.example`,
    message: text,
  };
}

/** One distinct spam row per text (for hit rates of the content signals on their own). */
export const SPAM_REQUESTS: readonly ContactRow[] = corpus.spam.map((_, index) =>
  spamRequest(index),
);
