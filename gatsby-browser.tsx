// The site's global styles, imported here as well as by the page frame (src/components/layout.tsx):
// so the one stylesheet Gatsby builds from every CSS file belongs to the app's first scripts, and
// webpack's runtime carries no code to load stylesheets for the pages' chunks (the page's HTML
// already holds them inline).
import "./src/styles/tokens.css";
import "./src/styles/global.css";
