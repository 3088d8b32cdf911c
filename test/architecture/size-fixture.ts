// Measured by size-limits.test.ts (function sizes as the size rule counts them); never imported.
export function short(): number {
  return 1;
}
export class Box {
  constructor(readonly n: number) {}
  method(): number {
    const m = this.n;
    return m;
  }
}
export const arrow = () => {
};
export const list = [1].map((x) => { return x; });
