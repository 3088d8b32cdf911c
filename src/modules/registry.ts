// The modules hostwire ships, by the short name tasks use.
import type { Module } from './types.js';
import { commandModule, shellModule } from './command/command.js';
import { assertModule, debugModule, failModule, metaModule, setFactModule } from './debug/debug.js';

const modules = new Map<string, Module<any, any>>();

export function registerModule(m: Module<any, any>): void {
  modules.set(m.name, m);
}

for (const m of [commandModule, shellModule, debugModule, assertModule, failModule, setFactModule, metaModule]) registerModule(m);

export function getModule(name: string): Module<any, any> | undefined {
  return modules.get(name);
}

export function isKnownModule(name: string): boolean {
  return modules.has(name);
}

export function moduleNames(): string[] {
  return [...modules.keys()].sort();
}
