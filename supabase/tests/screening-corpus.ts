/**
 * Text for measuring the screening's content signals (20261128000004_request_screening.sql):
 * realistic meeting requests as the page writes them (src/lib/meeting-request.ts), including
 * the awkward ones (foreign names, long consonant runs, a link to an RFP, empty answers), and
 * the spam a script sends to contact forms (link drops, SEO and crypto offers, random strings,
 * one template with rotating names), kept as data in screening-corpus.json. Used by
 * screening.test.ts (false positives and hit rates) and by `npm run bench:flood` (the flood's
 * text). Test and benchmark support, not served.
 */
import type { ContactRow } from "../../local-backend/test-support/helpers";
import corpus from "./screening-corpus.json";

interface Answers {
  name: string;
  organization: string;
  phone?: string;
  fleet?: string;
  products?: string;
  time?: string;
  challenges?: string;
}

/** A request as the page's buildContactRecord writes it. */
function fromPage(answers: Answers, index: number): ContactRow {
  const line = (label: string, answer: string | undefined, empty: string) =>
    `${label}: ${answer?.trim() || empty}`;
  return {
    name: answers.name,
    organization: answers.organization,
    email: `${
      answers.name
        .split(" ")[0]!
        .toLowerCase()
        .replace(/[^a-z]/g, "") || "visitor"
    }.${index}@agency.example`,
    message: [
      line("Phone", answers.phone, "Not provided"),
      line("Fleet Size", answers.fleet, "Not provided"),
      line("Products of Interest", answers.products, "None selected"),
      line("Preferred Meeting Time", answers.time, "Not specified"),
      line("Challenges/Questions", answers.challenges, "None provided"),
    ].join("\n"),
  };
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
