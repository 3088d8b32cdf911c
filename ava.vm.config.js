// `npm run test:vm`: the VM tier (test/vm/), scenarios on qemu VM hosts that take minutes each on a loaded
// 2-core machine; `npm test` (CI) leaves them out. One file at a time: each runs one or two VMs.
export default {
  files: ['dist/test/vm/**/*.test.js'],
  // ava restarts this timer only at each test's result, while a test's own deadline (t.timeout, 40 min) restarts
  // at each assertion: a scenario that keeps asserting may run longer than 45 min under load (one whose run built
  // the NM-OVS cache passed every step and was cut by a 50 min runner timeout). 90 min lets it finish; a scenario gone
  // quiet still meets its own deadline first (and its teardown runs).
  timeout: '90m',
  concurrency: 1,
  workerThreads: false,
  require: ['./dist/test/helpers/lab-owner.js'],
};
