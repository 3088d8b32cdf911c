// service_facts: the host's services as ansible_facts.services (ansible.builtin.service_facts,
// ansible-core 2.14): no arguments, never changes anything, runs under --check. Its read joins the
// play's batched read; the parsing follows the module (see parse.ts).
import { z } from 'zod';
import type { Module, ModuleResult } from '../types.js';
import { serviceFactsProbe } from './probe.js';
import { serviceFactsDoc } from './doc.js';

const serviceFactsArgs = z.object({}).strict();
type ServiceFactsArgs = z.infer<typeof serviceFactsArgs>;

export const serviceFactsModule: Module<ServiceFactsArgs> = {
  name: 'service_facts',
  doc: serviceFactsDoc,
  args: serviceFactsArgs,
  factsLevel: 'host',
  async run(_a, ctx): Promise<ModuleResult> {
    const st = await ctx.probe(serviceFactsProbe);
    if (st.unsupported) {
      return { changed: false, failed: true, msg: `service_facts: ${st.unsupported} found on the host; hostwire reads systemd and sysvinit's service --status-all, not ${st.unsupported} (not built)` };
    }
    if (Object.keys(st.services).length === 0) {
      return { changed: false, skipped: true, msg: 'Failed to find any services. This can be due to privileges or some other configuration issue.' };
    }
    return { changed: false, ansible_facts: { services: st.services } };
  },
  readsAhead: () => [serviceFactsProbe],
};
