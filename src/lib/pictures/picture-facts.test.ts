import { fillPlaceholders, formatDates, pictureFacts, unknownPlaceholders } from "./picture-facts";

const CONTENT = {
  site: { companyName: "Meridian Mobility Systems", shortName: "Meridian Mobility" },
  hero: { headline: "Turn microtransit\n into success" },
  expo: {
    eventName: "CTAA Expo 2026",
    booth: "512",
    startDate: "2026-05-17",
    endDate: "2026-05-20",
    venue: { city: "Palm Springs", region: "CA" },
  },
  contact: { labels: { booth: "Booth" } },
};

describe("picture facts", () => {
  it("takes every fact from the content", () => {
    expect(pictureFacts(CONTENT)).toEqual({
      companyName: "Meridian Mobility Systems",
      shortName: "Meridian Mobility",
      eventName: "CTAA Expo 2026",
      booth: "512",
      boothLabel: "Booth",
      dates: "May 17 – 20, 2026",
      place: "Palm Springs, CA",
      headline: "Turn microtransit into success",
    });
  });

  it("writes one day, days in two months and days in two years as a range", () => {
    expect(formatDates("2026-05-17", "2026-05-17")).toBe("May 17, 2026");
    expect(formatDates("2026-05-30", "2026-06-02")).toBe("May 30 – June 2, 2026");
    expect(formatDates("2026-12-30", "2027-01-02")).toBe("December 30, 2026 – January 2, 2027");
  });

  it("fills the placeholders of a picture description and leaves other braces alone", () => {
    const facts = pictureFacts(CONTENT);
    expect(fillPlaceholders("{shortName} booth {booth} at {eventName} {unknown}", facts)).toBe(
      "Meridian Mobility booth 512 at CTAA Expo 2026 {unknown}",
    );
    expect(unknownPlaceholders("booth {boot} and {booth}")).toEqual(["boot"]);
  });
});
