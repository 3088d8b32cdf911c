// The VM tier's deadlines: each scenario's own (t.timeout) sits below the tier's runner timeout in
// ava.vm.config.js (45 min), so the scenario's deadline fires first, its teardown runs and its log is kept.
// A scenario with a power cycle takes 20-35 min on a loaded 2-core machine (qemu TCG).
export const VM_DEADLINE_MS = 40 * 60_000;
export const VM_DEADLINE_WHY = 'the scenario\'s own deadline (below the VM tier\'s 45 min)';
