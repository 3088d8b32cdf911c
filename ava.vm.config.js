// `npm run test:vm`: the VM tier (test/vm/), scenarios on qemu VM hosts that take minutes each on a loaded
// 2-core machine; `npm test` (CI) leaves them out. One file at a time: each runs one or two VMs.
export default {
  files: ['dist/test/vm/**/*.test.js'],
  // Above every VM test's own deadline (t.timeout), so the test's deadline fires first and its teardown runs.
  timeout: '45m',
  concurrency: 1,
  workerThreads: false,
  require: ['./dist/test/helpers/lab-owner.js'],
};
