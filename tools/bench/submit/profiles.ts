/** What bench:submit measures: the links, the visitor's scenarios, and the host names Chromium maps to the link. */
import type { LinkProfile } from "../../lib/throttled-link";

export const PROFILES: Record<string, LinkProfile> = {
  /** The booth: a congested venue network and a slow phone. */
  "venue-wifi": { name: "venue Wi-Fi", rttMs: 400, downKbps: 1000, upKbps: 500, cpuSlowdown: 4 },
  /**
   * Lighthouse's mobile slow 4G as it models the real network (150 ms, 1.6 Mbit/s / 750 kbit/s):
   * its DevTools preset (562.5 ms) is that round trip × 3.75 because request-level emulation
   * charges no handshakes, which this link does.
   */
  "slow-4g": { name: "slow 4G", rttMs: 150, downKbps: 1600, upKbps: 750, cpuSlowdown: 4 },
};
export const SCENARIOS = ["on-form", "autofill"] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const SITE_HOST = "www.transit-expo.test";
export const SUPABASE_HOST = "benchproject.supabase.test";
export const ON_FORM_MS = 8000;
