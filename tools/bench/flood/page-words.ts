/** The page's own words (content/meeting.yaml): the form's labels, its options and the success toast. */
import fs from "node:fs";
import path from "node:path";

import { load } from "js-yaml";

import { meetingSchema } from "../../../build-time/content/schemas/meeting";
import { PROJECT_ROOT } from "../../lib/test-build";

export const meeting = meetingSchema.parse(
  load(fs.readFileSync(path.join(PROJECT_ROOT, "content", "meeting.yaml"), "utf8")),
);
