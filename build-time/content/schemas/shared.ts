/** Item shapes used by more than one content file, each one GraphQL type. */
import { group, href, text } from "../fields";

/** A big number with a caption. */
export const figure = group(
  "Figure",
  {
    value: text('The big number or short fact, e.g. "2,000" or "80%".', "2,000"),
    label: text("The caption under the number.", "daily rides on one regional service"),
  },
  "A big number with a short caption.",
);

/** One choice in a form list. */
export function choiceOption(valueDescription: string, valueExample: string, labelExample: string) {
  return group(
    "ChoiceOption",
    {
      value: text(valueDescription, valueExample),
      label: text("What the visitor sees next to the choice on the form.", labelExample),
    },
    "One choice on the form.",
  );
}

/** A link with its text. */
export const link = group(
  "FooterLink",
  {
    label: text("The link text.", "Case Studies"),
    href: href(
      'Where the link goes: "#" while the page does not exist yet, "#contact-form" to jump to the form, a site path such as /privacy/, or a full address (https://…, mailto:…).',
    ),
  },
  "A link: its text and where it goes.",
);

/** A message that pops up after the visitor sends the form. */
export function toastMessage(description: string, titleExample: string) {
  return group(
    "ToastMessage",
    {
      title: text("The message's first line, in bold.", titleExample),
      text: text(
        "The sentence under the title.",
        undefined,
        'Put it in quotes if it contains " #".',
      ),
    },
    description,
  );
}
