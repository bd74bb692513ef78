import { expoEventJsonLd, organizationJsonLd } from "./structured-data";

const organization = organizationJsonLd({
  name: "Meridian Mobility Systems",
  description: "Transit software.",
  siteUrl: "https://expo.example.com",
  logoUrl: "https://expo.example.com/apple-touch-icon.png",
  foundingYear: 1964,
  phone: "(614) 555-0172",
  email: "meetings@example.com",
  address: {
    street: "1 Main St",
    city: "Columbus",
    region: "OH",
    postalCode: "43215",
    country: "US",
  },
});

it("describes the provider with its founding year and a contact point, and the expo meeting as an event at the booth, organised by the provider", () => {
  expect(organization).toMatchObject({
    "@type": "Organization",
    foundingDate: "1964",
    contactPoint: {
      "@type": "ContactPoint",
      telephone: "(614) 555-0172",
      email: "meetings@example.com",
    },
  });
  const event = expoEventJsonLd(
    {
      eventName: "CTAA Expo 2025",
      booth: "713",
      startDate: "2025-05-18",
      endDate: "2025-05-21",
      venue: { name: "Convention Center", city: "Palm Springs", region: "CA", country: "US" },
      description: "Meet us.",
      imageUrl: "https://expo.example.com/share.png",
      pageUrl: "https://expo.example.com/",
    },
    organization["@id"],
  );
  expect(event).toMatchObject({
    "@type": "Event",
    name: "CTAA Expo 2025: meet us at booth 713",
    startDate: "2025-05-18",
    location: { "@type": "Place", name: "Convention Center, booth 713" },
    organizer: { "@id": "https://expo.example.com/#organization" },
  });
});
