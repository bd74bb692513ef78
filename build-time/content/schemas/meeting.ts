import { contentFile, group, imageAlt, list, ownPicture, text } from "../fields";
import { choiceOption, toastMessage } from "./shared";

const form = group(
  "MeetingFormCopy",
  {
    fullNameLabel: text(
      "The label of the name field. End it with * because the field is required.",
      "Full Name *",
    ),
    fullNameHint: text(
      "What the browser says when the name is only spaces.",
      "Enter your full name.",
    ),
    organizationLabel: text(
      "The label of the organization field (required: end it with *).",
      "Transit Agency/Organization *",
    ),
    organizationHint: text(
      "What the browser says when the organization is only spaces.",
      "Enter your transit agency or organization.",
    ),
    emailLabel: text("The label of the e-mail field (required: end it with *).", "Email *"),
    phoneLabel: text("The label of the phone field.", "Phone"),
    fleetSizeLabel: text("The label of the fleet-size field.", "Fleet Size"),
    fleetSizePlaceholder: text(
      "The example shown in the empty fleet-size field.",
      "e.g., 25 vehicles",
    ),
    productsLegend: text("The title above the product checkboxes.", "Products of Interest"),
    meetingTimeLegend: text("The title above the meeting-time choices.", "Preferred Meeting Time"),
    challengesLabel: text("The label of the large question field.", "Challenges/Questions"),
    submitLabel: text("The text of the send button.", "Schedule My CTAA Meeting"),
    submittingLabel: text(
      "The text of the send button while the request is being sent.",
      "Scheduling...",
    ),
    requiredNote: text("The small print under the send button."),
  },
  "The words on the meeting-request form: labels, hints, button texts.",
);

export const meetingSchema = contentFile(
  {
    heading: text("The heading of the meeting-request section.", "Schedule Your CTAA Meeting"),
    subtitle: text(
      "The line under the heading.",
      undefined,
      'Put it in quotes if it contains " #".',
    ),
    image: ownPicture(
      "Leave empty to use the illustration the site draws for you beside the form: an expo booth with the company's short name and the booth number (from the expo section) on it, which changes with them. Choose a picture here only to use your own instead.",
    ),
    imageAlt: imageAlt("image", "{shortName}, {booth}, {eventName}"),
    formTitle: text("The title of the card that holds the form.", "Book Your Meeting"),
    contactTitle: text("The title of the contact details card.", "Contact Information"),
    form,
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
    successToast: toastMessage(
      "The message shown after a request was sent. Name the expo and the booth as the rest of the page does.",
      "Meeting Request Submitted Successfully!",
    ),
    failureToast: toastMessage(
      "The message shown when a request could not be sent; the form keeps the visitor's answers.",
      "Submission Failed",
    ),
    toastRegionLabel: text(
      "What screen readers call the corner where these messages appear. Alt+T is the key that jumps there.",
      "Notifications Alt+T",
    ),
  },
  "Meeting request section (content/meeting.yaml)",
  "The meeting-request section: heading, picture, the words and choices on the form, and the messages after sending.",
);
