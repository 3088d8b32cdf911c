#!/usr/bin/env node
// hostwire's command line: run, inventory, facts, lab, test (the commands live in program.ts).
import { startCli } from './start.js';

void startCli(process.argv);
