import { contentFile, imageAlt, imagePath, list, text } from "../fields";
import { choiceOption } from "./shared";

export const meetingSchema = contentFile(
  {
    heading: text("The heading of the meeting-request section.", "Schedule Your CTAA Meeting"),
    subtitle: text("The line under the heading. Put it in quotes if it contains \" #\"."),
    image: imagePath("The picture beside the form, saved in content/images; write its path from this file, e.g. ./images/meeting-illustration.png."),
    imageAlt: imageAlt("image"),
    formTitle: text("The title of the card that holds the form.", "Book Your Meeting"),
    contactTitle: text("The title of the contact details card.", "Contact Information"),
    productOptions: list(
      choiceOption(
        "The product name saved with the meeting request. Every value must be different.",
        "OptiRun",
        "OptiRun (Scheduling Optimization)",
      ),
      "The products a visitor can tick on the form.",
    ),
    meetingTimeOptions: list(
      choiceOption(
        "A short code saved with the meeting request, e.g. day1-morning. Every value must be different.",
        "day1-morning",
        "Day 1 Morning",
      ),
      "The meeting times a visitor can choose on the form.",
    ),
  },
  "Meeting request section (content/meeting.yaml)",
  "The meeting-request section: heading, picture and the choices on the form.",
);
