// A VM scenario's lab name: HW_VM_LAB, when set, replaces the test's own (a worker running one scenario at a
// time beside others names its lab with its own prefix; lab names are [a-z][a-z0-9]{0,11}).
export const vmLabName = (name: string): string => process.env.HW_VM_LAB || name;
