// `hostwire init`: questions, defaults and checks (answers.ts), files (generate.ts), subnets preview.
export * from './answers.js';
export { generate, type Generated, type GeneratedFile } from './generate.js';
export { previewSubnets, formatPreview, type SubnetPreview, type SubnetRow } from './subnets.js';
