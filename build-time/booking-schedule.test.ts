import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SCHEDULE } from "../supabase/functions/book-meeting/test-support/fixtures.ts";
import { writeBookingSchedule } from "./booking-schedule";
import { checkContentDirectory } from "./content/check-content";
import { validContentFolderPerTest } from "./content/content-folder.test-support";
import { createContentPipeline } from "./content/pipeline";
import { formatProblem } from "./content/messages";

const folder = validContentFolderPerTest();
const errors = () => checkContentDirectory(folder.dir()).errors.map(formatProblem);

it("publishes the schedule the book-meeting function reads, the six form times on their days", () => {
  const pipeline = createContentPipeline(folder.dir());
  pipeline.checkAll({ info: () => {}, warn: () => {}, panicOnBuild: () => undefined as never });
  const publicDir = fs.mkdtempSync(path.join(os.tmpdir(), "public-"));
  writeBookingSchedule(publicDir, (name) => pipeline.lastGoodData(name));
  const schedule = JSON.parse(fs.readFileSync(`${publicDir}/book/schedule.json`, "utf8"));
  // The schedule book-meeting's own tests read, with this fixture's capacity.
  expect(schedule).toEqual({ ...SCHEDULE, capacity: 3 });
  fs.rmSync(publicDir, { recursive: true });
});

it("refuses a bad time zone, hours out of order, and a form time on no meeting day", () => {
  folder.edit("expo.yaml", "timeZone: America/Los_Angeles", "timeZone: America/Palm_Springs");
  folder.edit("expo.yaml", 'end: "12:00"', 'end: "12:30"');
  folder.edit("expo.yaml", 'start: "13:00"\n    end: "17:00"', 'start: "12:00"\n    end: "11:00"');
  folder.edit("expo.yaml", '    - "2025-05-21"\n', "");
  folder.edit("meeting.yaml", "value: day3-afternoon", "value: day4-afternoon");
  folder.edit("meeting.yaml", "value: day3-morning", "value: third-morning");
  expect(errors()).toEqual([
    'content/expo.yaml:48 › meetings › afternoon › start: "12:00" is before the morning ends ("12:30").',
    'content/expo.yaml:49 › meetings › afternoon › end: "11:00" is not after the afternoon\'s start ("12:00").',
    'content/expo.yaml:51 › meetings › timeZone: "America/Palm_Springs" is not a time zone name. Expected a time zone name such as America/Los_Angeles or Europe/Berlin.',
    'content/meeting.yaml:30 › meeting time option "Day 3 Morning" › value: "third-morning" names no meeting day. Expected day1-morning, day1-afternoon, day2-morning… so staff can book it.',
    'content/meeting.yaml:32 › meeting time option "Day 3 Afternoon" › value: "day4-afternoon" names day 4, but content/expo.yaml lists 2 meeting days. Add the day there or remove this time.',
  ]);
});
