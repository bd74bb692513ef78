import { contentFile, countryCode, email, group, phone, text } from "../fields";

const labels = group(
  "ContactLabels",
  {
    address: text("The word before the address in the contact card.", "Address"),
    phone: text("The word before the phone number in the contact card.", "Phone"),
    email: text("The word before the e-mail address in the contact card.", "Email"),
    booth: text(
      'The word before the booth number, wherever the page shows it ("Booth #713").',
      "Booth",
    ),
  },
  "The words that introduce each contact detail on the page.",
);

export const contactSchema = contentFile(
  {
    address: group(
      "PostalAddress",
      {
        street: text("Street and suite.", "1400 Commerce Parkway, Suite 300"),
        city: text("City.", "Columbus"),
        region: text("State or region, e.g. OH.", "OH"),
        postalCode: text("ZIP or postal code.", "43215"),
        country: countryCode("Country as a two-letter code."),
      },
      "The postal address shown beside the form and in the footer.",
    ),
    phone: phone("The phone number visitors can call."),
    email: email("The e-mail address visitors can write to."),
    booth: text("The booth number shown in the contact card.", "713"),
    labels,
  },
  "Contact details (content/contact.yaml)",
  "Contact details shown beside the form and in the footer.",
);
