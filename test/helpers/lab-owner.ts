// Loaded by ava into every test worker (package.json "ava.require"): labs this worker or its children bring
// up belong to the worker, so a test that times out or is killed never leaves its lab (src/lab/owner.ts).
import { OWNER_ENV } from '../../src/lab/owner.js';

process.env[OWNER_ENV] = String(process.pid);
