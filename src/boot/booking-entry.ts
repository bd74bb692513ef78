// The booking page's only script: webpack entry "booking-page" (gatsby-node.ts, onCreateWebpackConfig).
// The site's stylesheet is imported as in entry.ts: among this entry's first chunks, webpack's shared
// runtime counts it as loaded (the HTML holds it inline) and carries no code to fetch CSS.
import "../styles/tokens.css";
import "../styles/global.css";
import { bootBookingPage } from "../lib/booking-page";

bootBookingPage();
