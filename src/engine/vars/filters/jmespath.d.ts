// The jmespath package ships no types: the one function hostwire calls.
declare module 'jmespath' {
  export type JSONValue = unknown;
  export function search(data: JSONValue, expression: string): unknown;
  const jmespath: { search: typeof search };
  export default jmespath;
}
