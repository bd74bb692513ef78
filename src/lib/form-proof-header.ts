/** The header that carries the page proof with every insert (src/lib/form-proof.ts); a module of its own so the start-up script's warm-up can name it without the proof's code. */
export const FORM_PROOF_HEADER = "x-form-proof";
