// A payload: the zip of a run's fallback modules and their module_utils, named by its sha256.
export interface Payload {
  hash: string;
  zip: Buffer;
  files: string[];
}
