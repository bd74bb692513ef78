import {
  buildContactRecord,
  EMPTY_MEETING_REQUEST,
  meetingRequestFromForm,
  sendMeetingAnswers,
} from "./meeting-request";
import type { MeetingRequestValues } from "./meeting-request";

const meetingTimes = [
  { value: "day1-morning", label: "Day 1 Morning" },
  { value: "day2-afternoon", label: "Day 2 Afternoon" },
];
const products = [
  { value: "MobilityDR", label: "MobilityDR (Microtransit Platform)" },
  { value: "OptiRun", label: "OptiRun (Scheduling Optimization)" },
  { value: "Trip Exchange", label: "Trip Exchange (Multi-Provider Coordination)" },
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

function formData(entries: Array<[string, string]>): FormData {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

describe("buildContactRecord", () => {
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

  const allEmpty = [
    "Phone: Not provided",
    "Fleet Size: Not provided",
    "Products of Interest: None selected",
    "Preferred Meeting Time: Not specified",
    "Challenges/Questions: None provided",
  ];
  it.each<[string, Partial<MeetingRequestValues>, string[]]>([
    ["the fallback of each empty optional answer", EMPTY_MEETING_REQUEST, allEmpty],
    [
      "an all-blank optional answer as empty, trimmed",
      {
        phone: "   ",
        fleetSize: "\t\n",
        products: ["  ", " OptiRun "],
        meetingTime: "  ",
        challenges: "  \n  ",
      },
      allEmpty.map((line, index) => (index === 2 ? "Products of Interest: OptiRun" : line)),
    ],
  ])("uses %s", (_what, optional, lines) => {
    const record = buildContactRecord(
      {
        ...EMPTY_MEETING_REQUEST,
        ...optional,
        fullName: "  Ana Pérez \t",
        organization: "\nValley Regional Transit  ",
        email: " ana@vrt.example.org ",
      },
      meetingTimes,
    );
    expect(record).toEqual({
      name: "Ana Pérez",
      organization: "Valley Regional Transit",
      email: "ana@vrt.example.org",
      message: lines.join("\n"),
    });
  });

  it.each<[string, Partial<MeetingRequestValues>, string]>([
    [
      "keeps multi-line challenges inside the last line",
      { challenges: "  First line.\nSecond line.  " },
      "\nChallenges/Questions: First line.\nSecond line.",
    ],
    [
      "shows the meeting time's value when its label is unknown",
      { meetingTime: "day9-evening" },
      "\nPreferred Meeting Time: day9-evening\n",
    ],
    [
      "joins a single product without a separator",
      { products: ["Vámonos!"] },
      "\nProducts of Interest: Vámonos!\n",
    ],
  ])("%s", (_what, changes, expected) => {
    expect(buildContactRecord({ ...complete, ...changes }, meetingTimes).message).toContain(
      expected,
    );
  });
});

// Every field read, the products in the form's order, in a real browser: e2e/tests/form-submit.spec.ts
// ("a full submission", whose stored row is compared field by field).
describe("meetingRequestFromForm", () => {
  it("gives the empty request for an empty form, and drops a product or meeting time the form does not offer", () => {
    expect(meetingRequestFromForm(formData([]), products, meetingTimes)).toEqual(
      EMPTY_MEETING_REQUEST,
    );
    const unknown = formData([
      ["products", "Teleporter"],
      ["products", "OptiRun"],
      ["meetingTime", "day9-midnight"],
    ]);
    expect(meetingRequestFromForm(unknown, products, meetingTimes)).toMatchObject({
      products: ["OptiRun"],
      meetingTime: "",
    });
  });
});

// A bot's filled honeypot (nothing sent, success shown, nothing counted) and a failed request
// (passed on, answers kept): src/components/meeting-form.test.tsx.
describe("sendMeetingAnswers", () => {
  it("sends one record assembled from the answers, in the same task", () => {
    const answers = formData([
      ["fullName", " Ana Pérez "],
      ["organization", "Valley Transit"],
      ["email", "ana@vt.example.org"],
      ["meetingTime", "day2-afternoon"],
    ]);
    const options = { productOptions: products, meetingTimeOptions: meetingTimes };
    const submitRequest = jest.fn().mockResolvedValue(undefined);
    void sendMeetingAnswers(answers, options, submitRequest);
    expect(submitRequest).toHaveBeenCalledTimes(1);
    expect(submitRequest.mock.calls[0]![0]).toMatchObject({
      name: "Ana Pérez",
      email: "ana@vt.example.org",
      organization: "Valley Transit",
      message: expect.stringContaining("Day 2 Afternoon"),
    });
  });
});
