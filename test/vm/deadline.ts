// The VM tier's deadlines. ava restarts a test's own timeout (t.timeout) at each of its assertions and the
// runner's timeout (ava.vm.config.js, 90 min) at each test's result; the scenario's deadline is the shorter,
// so it fires first, its teardown runs (the lab goes) and its log is kept. The longest quiet stretch of a
// scenario - a VM power cycle with the boot oneshot, a lab of two VMs coming up - takes 10-15 min under load.
export const VM_DEADLINE_MS = 40 * 60_000;
export const VM_DEADLINE_WHY = 'the scenario\'s own deadline (below the VM tier\'s 90 min)';
