// Small commander helpers for repeatable and counted options.
export const collect = (value: string, previous: string[]) => [...previous, value];
export const count = (_: string, previous: number) => previous + 1;
export const splitList = (value: string, previous: string[]) => [...previous, ...value.split(',').map((s) => s.trim()).filter(Boolean)];
