// Jest stand-in for Gatsby's runtime (Gatsby's own using-jest example): queries are compiled
// away at build time, so in tests `graphql` is inert and components receive their data as props.
const gatsby = jest.requireActual("gatsby");

module.exports = { ...gatsby, graphql: jest.fn(), useStaticQuery: jest.fn() };
