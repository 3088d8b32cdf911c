export { buildBatch, splitBatch, type BatchProbe, type BatchOutput } from './batch.js';
export { gatherFacts, parseFacts, factsScript, type Facts } from './gather.js';
export { FACT_COMMANDS } from './commands.js';
