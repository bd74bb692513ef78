// The site's global styles, imported here as well as by the page frame (src/components/layout.tsx)
// and the built pages' start-up script (src/boot/entry.ts): the one stylesheet Gatsby builds from
// every CSS file then belongs to the first chunks of both webpack entries, and the runtime they
// share carries no code to load stylesheets (the pages' HTML already holds them inline).
import "./src/styles/tokens.css";
import "./src/styles/global.css";
