// Stands in for a plugin's gatsby-browser.js that does nothing in a production build
// (build-time/unused-gatsby-runtime.ts): no browser APIs.
module.exports = {};
