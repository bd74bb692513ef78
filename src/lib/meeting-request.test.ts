import {
  buildContactRecord,
  EMPTY_MEETING_REQUEST,
  HONEYPOT_FIELD_NAME,
  isFilledByBot,
  meetingRequestFromForm,
} from "./meeting-request";
import type { MeetingRequestValues } from "./meeting-request";

const meetingTimes = [
  { value: "day1-morning", label: "Day 1 Morning" },
  { value: "day2-afternoon", label: "Day 2 Afternoon" },
];

const complete: MeetingRequestValues = {
  fullName: "Ana Pérez",
  organization: "Valley Regional Transit",
  email: "ana.perez@vrt.example.org",
  phone: "(208) 555-0101",
  fleetSize: "25 vehicles",
  products: ["MobilityDR", "Trip Exchange"],
  meetingTime: "day2-afternoon",
  challenges: "Our zone service misses its productivity target.",
};

describe("buildContactRecord", () => {
  /** The message of the complete request with `changes`. */
  const messageWith = (changes: Partial<MeetingRequestValues>) =>
    buildContactRecord({ ...complete, ...changes }, meetingTimes).message;

  it("maps the identity fields and assembles every labelled line in order", () => {
    expect(buildContactRecord(complete, meetingTimes)).toEqual({
      name: "Ana Pérez",
      email: "ana.perez@vrt.example.org",
      organization: "Valley Regional Transit",
      message: [
        "Phone: (208) 555-0101",
        "Fleet Size: 25 vehicles",
        "Products of Interest: MobilityDR, Trip Exchange",
        "Preferred Meeting Time: Day 2 Afternoon",
        "Challenges/Questions: Our zone service misses its productivity target.",
      ].join("\n"),
    });
  });

  it("uses the fallback of each empty optional answer", () => {
    const record = buildContactRecord(
      { ...EMPTY_MEETING_REQUEST, fullName: "A", organization: "B", email: "a@b.co" },
      meetingTimes,
    );
    expect(record.message).toBe(
      [
        "Phone: Not provided",
        "Fleet Size: Not provided",
        "Products of Interest: None selected",
        "Preferred Meeting Time: Not specified",
        "Challenges/Questions: None provided",
      ].join("\n"),
    );
  });

  it("trims every answer and treats an all-blank optional answer as empty", () => {
    const record = buildContactRecord(
      {
        fullName: "  Ana Pérez \t",
        organization: "\nValley Regional Transit  ",
        email: " ana@vrt.example.org ",
        phone: "   ",
        fleetSize: "\t\n",
        products: ["  ", " OptiRun "],
        meetingTime: "  ",
        challenges: "  \n  ",
      },
      meetingTimes,
    );
    expect(record.name).toBe("Ana Pérez");
    expect(record.organization).toBe("Valley Regional Transit");
    expect(record.email).toBe("ana@vrt.example.org");
    expect(record.message.split("\n")).toEqual([
      "Phone: Not provided",
      "Fleet Size: Not provided",
      "Products of Interest: OptiRun",
      "Preferred Meeting Time: Not specified",
      "Challenges/Questions: None provided",
    ]);
  });

  it("keeps multi-line challenges inside the last line's answer", () => {
    expect(
      messageWith({ challenges: "  First line.\nSecond line.  " }).endsWith(
        "Challenges/Questions: First line.\nSecond line.",
      ),
    ).toBe(true);
  });

  it("shows the meeting time's human label, or its value if the label is unknown", () => {
    expect(messageWith({ meetingTime: "day1-morning" })).toContain(
      "Preferred Meeting Time: Day 1 Morning",
    );
    expect(messageWith({ meetingTime: "day9-evening" })).toContain(
      "Preferred Meeting Time: day9-evening",
    );
  });

  it("joins a single product without a separator", () => {
    expect(messageWith({ products: ["Vámonos!"] })).toContain("Products of Interest: Vámonos!\n");
  });
});

describe("meetingRequestFromForm", () => {
  const products = [
    { value: "MobilityDR", label: "MobilityDR (Microtransit Platform)" },
    { value: "OptiRun", label: "OptiRun (Scheduling Optimization)" },
    { value: "Trip Exchange", label: "Trip Exchange (Multi-Provider Coordination)" },
  ];

  function formData(entries: Array<[string, string]>): FormData {
    const data = new FormData();
    for (const [name, value] of entries) data.append(name, value);
    return data;
  }

  it("reads every field the form names, as typed (trimming is for the record, not the form)", () => {
    const data = formData([
      ["fullName", " Ana Pérez "],
      ["organization", "Valley Regional Transit"],
      ["email", "ana.perez@vrt.example.org"],
      ["phone", "(208) 555-0101"],
      ["fleetSize", "25 vehicles"],
      ["products", "Trip Exchange"],
      ["products", "MobilityDR"],
      ["meetingTime", "day2-afternoon"],
      ["challenges", "Line one\nLine two"],
      ["reference_code", "bot"],
    ]);
    expect(meetingRequestFromForm(data, products, meetingTimes)).toEqual({
      ...complete,
      fullName: " Ana Pérez ",
      challenges: "Line one\nLine two",
    });
  });

  it("gives the empty request for an empty form", () => {
    expect(meetingRequestFromForm(formData([]), products, meetingTimes)).toEqual(
      EMPTY_MEETING_REQUEST,
    );
  });

  it("drops a product or meeting time the form does not offer", () => {
    const values = meetingRequestFromForm(
      formData([
        ["products", "Teleporter"],
        ["products", "OptiRun"],
        ["meetingTime", "day9-midnight"],
      ]),
      products,
      meetingTimes,
    );
    expect(values.products).toEqual(["OptiRun"]);
    expect(values.meetingTime).toBe("");
  });
});

describe("isFilledByBot", () => {
  it("is true only when the hidden field has an answer", () => {
    const form = new FormData();
    expect(isFilledByBot(form)).toBe(false);
    form.set(HONEYPOT_FIELD_NAME, "");
    expect(isFilledByBot(form)).toBe(false);
    form.set(HONEYPOT_FIELD_NAME, "https://spam.example");
    expect(isFilledByBot(form)).toBe(true);
  });
});
