// Play keywords about how hosts are taken: `order` (the order hosts start in), and the ones hostwire
// refuses rather than ignores (`strategy` other than linear, `force_handlers: true`). Ansible's Playbook
// Keywords reference is the authority.
import { BadInputError, type SourceLoc } from '../../errors.js';
import { keyLoc } from './keyword-types.js';

export const HOST_ORDERS = ['inventory', 'reverse_inventory', 'sorted', 'reverse_sorted', 'shuffle'] as const;
export type HostOrder = (typeof HOST_ORDERS)[number];

/** `order:` as written on a play; undefined means inventory order. */
export function orderKeyword(p: Record<string, unknown>, fallback: SourceLoc): HostOrder | undefined {
  const v = p.order;
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string' && (HOST_ORDERS as readonly string[]).includes(v)) return v as HostOrder;
  throw new BadInputError(`'order' must be one of ${HOST_ORDERS.join(', ')}, got ${JSON.stringify(v)}`, keyLoc(p, 'order', fallback));
}

/** The play's hosts (inventory order) in the order `order:` asks for; sorted compares names as Python's sort does. */
export function orderHosts(hosts: readonly string[], order: HostOrder | undefined, random: () => number = Math.random): string[] {
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  switch (order) {
    case 'reverse_inventory': return [...hosts].reverse();
    case 'sorted': return [...hosts].sort(byCodePoint);
    case 'reverse_sorted': return [...hosts].sort(byCodePoint).reverse();
    case 'shuffle': {
      const out = [...hosts];
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
      }
      return out;
    }
    default: return [...hosts];
  }
}

/** Play keywords hostwire reads but cannot honour in every value: refused at load, never ignored. */
export function checkPlayOnlyKeywords(p: Record<string, unknown>, fallback: SourceLoc): void {
  const strategy = p.strategy;
  if (strategy !== undefined && strategy !== null && !['linear', 'ansible.builtin.linear'].includes(String(strategy))) {
    throw new BadInputError(`strategy: ${JSON.stringify(strategy)} is not supported: hostwire runs plays with the linear strategy only (expected linear)`, keyLoc(p, 'strategy', fallback));
  }
  const force = p.force_handlers;
  if (force !== undefined && force !== null && force !== false && !['no', 'false', 'False'].includes(String(force))) {
    throw new BadInputError(`'force_handlers' is not supported by hostwire (Ansible would run notified handlers on hosts whose tasks failed); remove it`, keyLoc(p, 'force_handlers', fallback));
  }
}
