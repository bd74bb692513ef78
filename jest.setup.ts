import "@testing-library/jest-dom";
import { TextEncoder } from "node:util";

// jsdom has no TextEncoder, which react-dom/server needs (tests that render the build-time HTML).
globalThis.TextEncoder ??= TextEncoder as typeof globalThis.TextEncoder;
