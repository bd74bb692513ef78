import { bootBookingPage } from "../lib/booking-page";

// The booking page's only script: webpack entry "booking-page" (gatsby-node.ts, onCreateWebpackConfig).
bootBookingPage();
