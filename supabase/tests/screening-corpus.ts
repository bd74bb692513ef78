/**
 * Text for measuring the screening's content signals (20261128000004_request_screening.sql):
 * realistic meeting requests as the page writes them (src/lib/meeting-request.ts), including
 * the awkward ones (foreign names, long consonant runs, a link to an RFP, empty answers), and
 * the spam a script sends to contact forms (link drops, SEO and crypto offers, random strings,
 * one template with rotating names). Used by screening.test.ts (false positives and hit rates)
 * and by `npm run bench:flood` (the flood's text). Test and benchmark support, not served.
 */
import type { ContactRow } from "../../local-backend/test-support/helpers";

interface Answers {
  name: string;
  organization: string;
  phone?: string;
  fleet?: string;
  products?: string;
  time?: string;
  challenges?: string;
}

/** A request as the page's buildContactRecord writes it. */
function fromPage(answers: Answers, index: number): ContactRow {
  const line = (label: string, answer: string | undefined, empty: string) =>
    `${label}: ${answer?.trim() || empty}`;
  return {
    name: answers.name,
    organization: answers.organization,
    email: `${
      answers.name
        .split(" ")[0]!
        .toLowerCase()
        .replace(/[^a-z]/g, "") || "visitor"
    }.${index}@agency.example`,
    message: [
      line("Phone", answers.phone, "Not provided"),
      line("Fleet Size", answers.fleet, "Not provided"),
      line("Products of Interest", answers.products, "None selected"),
      line("Preferred Meeting Time", answers.time, "Not specified"),
      line("Challenges/Questions", answers.challenges, "None provided"),
    ].join("\n"),
  };
}

const REAL_ANSWERS: Answers[] = [
  {
    name: "Maria Gonzalez",
    organization: "Valley Metro",
    fleet: "120 buses",
    products: "Demand-response scheduling",
    time: "Tuesday morning",
  },
  {
    name: "James O'Connor",
    organization: "Riverside County Transit",
    phone: "+1 951 555 0142",
    challenges:
      "We are replacing our paratransit scheduling system next year and want to see how trips are batched.",
  },
  { name: "Li Wei", organization: "Metro Transit Authority" },
  {
    name: "Zoë Saldaña-Ñúñez",
    organization: "Transportes Urbanos de Sevilla",
    fleet: "40 vehicles",
    challenges: "¿Tienen soporte en español para los conductores?",
  },
  {
    name: "Krzysztof Szczęśniak",
    organization: "MPK Kraków",
    products: "Microtransit, Fleet analytics",
    challenges: "Interested in on-demand pilots for the outskirts.",
  },
  {
    name: "Anneliese Schwarzschild",
    organization: "Verkehrsverbund Rhein-Ruhr",
    time: "Wednesday afternoon",
    challenges: "Wie funktioniert die Anbindung an unsere Leitstelle?",
  },
  {
    name: "Dave Smith",
    organization: "County of Fresno Rural Transit Agency",
    fleet: "18 cutaways",
    challenges:
      "Our RFP is here: https://fresno.example.gov/rfp/2026-04 - can you respond by March?",
  },
  {
    name: "Priya Natarajan",
    organization: "Bay Area Rapid Transit",
    products: "Fleet analytics",
    challenges: "Looking at ridership forecasting for first/last mile service.",
  },
  {
    name: "Tomás Ó Briain",
    organization: "Bus Éireann",
    phone: "+353 1 555 0199",
    fleet: "about 1,100",
    time: "Thursday",
  },
  { name: "Nguyễn Thị Minh Khai", organization: "Saigon Bus Company", challenges: "Demo please" },
  { name: "Bob", organization: "Self", challenges: "stopping by the booth later" },
  {
    name: "Dr. Amelia Brightwater-Hughes",
    organization: "Southeastern Pennsylvania Transportation Authority (SEPTA)",
    products: "Demand-response scheduling, Microtransit, Fleet analytics",
    time: "Any time",
    challenges:
      "We operate CCT Connect with 450 vehicles across five counties. Main pain points: same-day trips, no-shows, and driver break rules. Also curious about NTD reporting exports.",
  },
  {
    name: "Tshepo Mokoena",
    organization: "Rea Vaya",
    fleet: "280",
    challenges: "Integration with our AVL vendor (Trapeze) — possible?",
  },
  {
    name: "Søren Kjærgaard",
    organization: "Movia",
    time: "Monday 10:00",
    challenges: "Flextur replacement, 2027.",
  },
  {
    name: "Hiroshi Tanaka",
    organization: "東京都交通局",
    challenges: "オンデマンド交通について相談したいです。",
  },
  {
    name: "Ahmed Al-Rashid",
    organization: "RTA Dubai",
    phone: "+971 4 555 0101",
    products: "Microtransit",
  },
  {
    name: "Chloe Dubois",
    organization: "Île-de-France Mobilités",
    challenges: "Nous cherchons une solution de TAD pour les zones rurales.",
  },
  {
    name: "Matt Wright",
    organization: "Ride Connection",
    fleet: "95 vans",
    challenges: "volunteer driver programs - do you support those?",
  },
  {
    name: "Kathleen McAllister",
    organization: "Chatham Area Transit",
    challenges: "Please call me, my cell is 912-555-0123. Thanks!",
  },
  {
    name: "Raj Patel",
    organization: "Via Metropolitan Transit",
    products: "Fleet analytics",
    challenges: "Can you show the dashboard on a tablet?",
  },
  { name: "Grzegorz Brzęczyszczykiewicz", organization: "ZTM Warszawa" },
  {
    name: "Eleanor Whitfield",
    organization: "Massachusetts Bay Transportation Authority",
    challenges:
      "We saw your talk at APTA. Links to the case studies would help: https://example.org/a and the slides.",
  },
  {
    name: "Jorge Ramírez",
    organization: "Sound Transit",
    time: "Tuesday 2pm",
    challenges: "RFP coming Q3",
  },
  {
    name: "Ngozi Okonkwo",
    organization: "Lagos Metropolitan Area Transport Authority",
    challenges: "We need offline support for drivers in low-connectivity areas.",
  },
  { name: "Sam", organization: "SamTrans", challenges: "hi" },
  {
    name: "Olivia Chen",
    organization: "King County Metro",
    fleet: "1,500+",
    products: "Demand-response scheduling, Microtransit",
    challenges: "How do you handle ADA eligibility data and HIPAA?",
  },
  {
    name: "Piotr Wróblewski",
    organization: "Gdańskie Autobusy i Tramwaje",
    challenges: "Czy system obsługuje bilety elektroniczne?",
  },
  { name: "Fatima Zahra Benali", organization: "Casabus", time: "Friday" },
  {
    name: "William Thompson III",
    organization: "Greater Richmond Transit Company",
    challenges: "Our board meets in March; a short proposal by February would be ideal.",
  },
  {
    name: "Aoife Nic Giolla Phádraig",
    organization: "Transport for Ireland",
    challenges: "Rural DRT, 2026 tender",
  },
  {
    name: "Hans-Jürgen Pfützner",
    organization: "Stadtwerke München",
    challenges: "Schnittstelle zu HAFAS? Wir brauchen Echtzeitdaten.",
  },
  {
    name: "Emily Rhodes",
    organization: "CTAA member",
    challenges: "Small agency, 6 vehicles, grant-funded. Pricing?",
  },
  {
    name: "Marco Rossi",
    organization: "ATM Milano",
    products: "Microtransit",
    challenges: "www.atm.example.it has our current service map.",
  },
  {
    name: "Yuki Sato",
    organization: "Osaka Metro",
    challenges: "Looking forward to meeting at the booth.",
  },
  {
    name: "Carlos Mendoza",
    organization: "Metro de Santiago",
    challenges: "Queremos ver la demo de despacho en tiempo real.",
  },
  {
    name: "Jennifer Lee",
    organization: "Montgomery County Ride On",
    fleet: "350",
    time: "Tuesday",
    challenges: "Demo please",
  },
  { name: "Thabo Nkosi", organization: "MyCiTi", challenges: "Need a meeting about Flex routes" },
  {
    name: "Isabella Costa",
    organization: "SPTrans",
    challenges: "Temos interesse em roteirização dinâmica.",
  },
  {
    name: "Nathaniel Brooks",
    organization: "Utah Transit Authority",
    challenges:
      "UTA On Demand contract ends 2027. We'd like to compare options: scheduling, vehicle tablets, rider app, reporting.",
  },
  {
    name: "Ingrid Bjørnstad",
    organization: "Ruter",
    challenges: "Hvordan fungerer integrasjonen med billettsystemet?",
  },
];

/** Realistic requests from people: the content signals should flag none of them. */
export const REAL_REQUESTS: readonly ContactRow[] = REAL_ANSWERS.map(fromPage);

const SPAM_TEXTS: string[] = [
  "Boost your website traffic! Visit https://seo-rank-fast.example and http://cheap-backlinks.example today.",
  "Hello, I noticed your site is not ranking on Google. We offer guaranteed first page results: https://rankboost.example https://rankboost.example/pricing",
  'Earn $5,000 a week from home!!! <a href="http://crypto-profit.example">click here</a> [url=http://crypto-profit.example]profit[/url]',
  "Buy cheap meds online www.pharma-deals.example www.pills-now.example no prescription",
  "qwrtzpsdfg hjklmnbvcx zxcvbnmlkj asdfghjkl",
  "xkcdqwrt pllmnbvc trwqzxsd kjhgfdsqw",
  "Dear Sir/Madam, we are a leading web design agency. Check our portfolio https://webdesign.example and our offers https://webdesign.example/offers",
  "Get 10,000 Instagram followers now http://followers.example http://likes.example",
  "Your domain is expiring! Renew at http://domain-renew.example/?ref=transit immediately or http://domain-renew.example/pay",
  "Invest in Bitcoin with 300% returns https://btc-doubler.example https://t.me/btcdoubler",
];

/** A contact-form spam flood's rows: each text under rotating senders (the bench's text too). */
export function spamRequest(index: number): ContactRow {
  const text = SPAM_TEXTS[index % SPAM_TEXTS.length]!;
  return {
    name: ["John Smith", "Marketing Team", "qwrtzpsdfg", "Alex", "SEO Expert"][index % 5]!,
    organization: ["Digital Agency", "Rank Boost LLC", "zxcvbnmlkj", "Growth Partners", "n/a"][
      index % 5
    ]!,
    email: `promo${index}@spam-sender.example`,
    message: text,
  };
}

/** One distinct spam row per text (for hit rates of the content signals on their own). */
export const SPAM_REQUESTS: readonly ContactRow[] = SPAM_TEXTS.map((_, index) =>
  spamRequest(index),
);
