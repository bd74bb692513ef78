// damerau-levenshtein ships no types: the one function closestMatch() calls.
declare module "damerau-levenshtein" {
  export default function damerauLevenshtein(a: string, b: string): { steps: number };
}
