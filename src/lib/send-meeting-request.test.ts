import { HONEYPOT_FIELD_NAME } from "./meeting-request";
import { sendMeetingAnswers } from "./send-meeting-request";

const content = {
  productOptions: [{ value: "MobilityDR", label: "MobilityDR" }],
  meetingTimeOptions: [{ value: "day2-afternoon", label: "Day 2 Afternoon" }],
};

function answers(extra: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries({
    fullName: " Ana Pérez ",
    organization: "Valley Transit",
    email: "ana@vt.example.org",
    products: "MobilityDR",
    meetingTime: "day2-afternoon",
    ...extra,
  })) {
    data.append(name, value);
  }
  return data;
}

describe("sendMeetingAnswers", () => {
  it("sends one record assembled from the answers, in the same task", () => {
    const submitRequest = jest.fn().mockResolvedValue(undefined);
    void sendMeetingAnswers(answers(), content, submitRequest);
    expect(submitRequest).toHaveBeenCalledTimes(1);
    expect(submitRequest.mock.calls[0]![0]).toMatchObject({
      name: "Ana Pérez",
      email: "ana@vt.example.org",
      organization: "Valley Transit",
    });
    expect(submitRequest.mock.calls[0]![0].message).toContain("Day 2 Afternoon");
  });

  it("sends nothing, and reports success, when a bot filled the honeypot", async () => {
    const submitRequest = jest.fn();
    await expect(
      sendMeetingAnswers(
        answers({ [HONEYPOT_FIELD_NAME]: "http://spam.example" }),
        content,
        submitRequest,
      ),
    ).resolves.toBeUndefined();
    expect(submitRequest).not.toHaveBeenCalled();
  });

  it("passes the request's failure on", async () => {
    const failure = new Error("refused");
    await expect(
      sendMeetingAnswers(answers(), content, () => Promise.reject(failure)),
    ).rejects.toBe(failure);
  });
});
