/** A week's site report and a digest's claim row, as the database gives them, for several tests. */
import type { SiteReport } from "../payload.ts";

const funnel = (
  views: number,
  ctaTaps: number,
  formStarts: number,
  requests: number,
  failures = 0,
  meetings = 0,
) => ({
  views,
  ctaTaps,
  formStarts,
  requests,
  failures,
  meetings,
});

export const REPORT: SiteReport = {
  from: "2026-11-16",
  to: "2026-11-22",
  totals: funnel(200, 40, 20, 5, 1, 2),
  campaigns: [
    { source: "flyer", medium: "qr", campaign: "", ...funnel(120, 30, 15, 4, 0, 2) },
    { source: "", medium: "", campaign: "", ...funnel(60, 8, 4, 1, 1) },
    { source: "linkedin", medium: "social", campaign: "expo-2025", ...funnel(20, 2, 1, 0) },
  ],
  referrers: [
    { domain: "linkedin.com", views: 18 },
    { domain: "mail.google.com", views: 3 },
  ],
  ctas: [
    { id: "hero", taps: 25 },
    { id: "offering-2", taps: 15 },
  ],
  days: ["16", "17", "18", "19", "20", "21", "22"].map((day, index) => ({
    date: `2026-11-${day}`,
    ...funnel(index === 3 ? 100 : 10 * index, 0, 0, index === 3 ? 3 : 0),
  })),
};

/** 14 held requests from 5 addresses; the first 3 listed, the likeliest real first. */
export const DIGEST_ROW = {
  digest_id: 4,
  lease_token: "6f1c1f7e-2f4d-4b4c-9a8e-1d2c3b4a5f60",
  attempt: 1,
  request_count: 14,
  first_at: "2026-11-24T23:02:05.123456+00:00",
  last_at: "2026-11-24T23:19:40+00:00",
  client_count: 5,
  interval_seconds: 900,
  reasons: { "no page proof": 12, "over the address budget": 1, "page proof never confirmed": 1 },
  requests: [
    {
      id: 31,
      created_at: "2026-11-24T23:10:00+00:00",
      name: "Dana Whitfield",
      organization: "Valley Regional Transit",
      email: "dana@vrt.example",
      message: "Phone: Not provided\nChallenges/Questions: We run 40 paratransit vans.",
      truncated: false,
      held_for: ["over the address budget"],
      signals: [],
      same_address: 23,
      copies: 1,
    },
    {
      id: 30,
      created_at: "2026-11-24T23:19:40+00:00",
      name: "Ann Lee",
      organization: "Metro",
      email: "ann@metro.example",
      message: "x".repeat(400),
      truncated: true,
      held_for: ["page proof never confirmed"],
      signals: [],
      same_address: 0,
      copies: 1,
    },
    {
      id: 12,
      created_at: "2026-11-24T23:02:05+00:00",
      name: "John Smith",
      organization: "Digital Agency",
      email: "promo0@spam-sender.example",
      message: "Boost your website traffic!\nVisit https://seo.example and http://links.example",
      truncated: false,
      held_for: ["no page proof"],
      signals: ["links", "repeated-text"],
      same_address: 11,
      copies: 12,
    },
  ],
};
