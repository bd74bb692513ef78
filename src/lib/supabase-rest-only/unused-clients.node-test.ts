import fs from "node:fs";
import { createClient } from "@supabase/supabase-js";
import { UNUSED_SUPABASE_PACKAGES } from "./unused-clients";

// supabase-js as the page ships it (jest.config.js maps its unused clients here).

const anonKey = "anon-key";
const pageClient = () =>
  createClient("https://project.supabase.test", anonKey, { accessToken: async () => anonKey });

describe("the page's supabase-js (REST only)", () => {
  it("says plainly that realtime, storage and functions are not part of it", () => {
    const client = pageClient();
    expect(() => client.channel("rows")).toThrow(
      /The realtime client is not part of this page's supabase-js/,
    );
    expect(() => client.storage.from("files")).toThrow(
      /The storage client is not part of this page's supabase-js/,
    );
    expect(() => client.functions.invoke("notify")).toThrow(
      /The functions client is not part of this page's supabase-js/,
    );
    expect(() => createClient("https://project.supabase.test", anonKey)).toThrow(
      /The auth client is not part of this page's supabase-js/,
    );
  });

  it("names every package supabase-js imports besides PostgREST's", () => {
    const source = fs.readFileSync(require.resolve("@supabase/supabase-js/dist/index.mjs"), "utf8");
    const imported = [
      ...new Set([...source.matchAll(/from "(@supabase\/[a-z-]+)"/g)].map((match) => match[1])),
    ].sort();
    expect(imported).toEqual([...UNUSED_SUPABASE_PACKAGES, "@supabase/postgrest-js"].sort());
  });
});
