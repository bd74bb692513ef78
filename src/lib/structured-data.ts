/** schema.org descriptions of the provider and of the expo meeting, for search engines. */

export type OrganizationFacts = {
  name: string;
  description: string;
  siteUrl: string;
  logoUrl: string;
  foundingYear: number;
  phone: string;
  email: string;
  address: { street: string; city: string; region: string; postalCode: string; country: string };
};

export type ExpoFacts = {
  eventName: string;
  booth: string;
  startDate: string;
  endDate: string;
  venue: { name: string; city: string; region: string; country: string };
  description: string;
  imageUrl: string;
  pageUrl: string;
};

export function organizationJsonLd(facts: OrganizationFacts) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    "@id": `${facts.siteUrl}/#organization`,
    name: facts.name,
    description: facts.description,
    url: `${facts.siteUrl}/`,
    logo: facts.logoUrl,
    foundingDate: String(facts.foundingYear),
    email: facts.email,
    telephone: facts.phone,
    address: {
      "@type": "PostalAddress",
      streetAddress: facts.address.street,
      addressLocality: facts.address.city,
      addressRegion: facts.address.region,
      postalCode: facts.address.postalCode,
      addressCountry: facts.address.country,
    },
    contactPoint: {
      "@type": "ContactPoint",
      contactType: "sales",
      telephone: facts.phone,
      email: facts.email,
      areaServed: facts.address.country,
      availableLanguage: ["English"],
    },
  };
}

export function expoEventJsonLd(facts: ExpoFacts, organizationId: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Event",
    name: `${facts.eventName}: meet us at booth ${facts.booth}`,
    description: facts.description,
    startDate: facts.startDate,
    endDate: facts.endDate,
    eventStatus: "https://schema.org/EventScheduled",
    eventAttendanceMode: "https://schema.org/OfflineEventAttendanceMode",
    image: [facts.imageUrl],
    url: facts.pageUrl,
    location: {
      "@type": "Place",
      name: `${facts.venue.name}, booth ${facts.booth}`,
      address: {
        "@type": "PostalAddress",
        addressLocality: facts.venue.city,
        addressRegion: facts.venue.region,
        addressCountry: facts.venue.country,
      },
    },
    organizer: { "@id": organizationId },
  };
}
