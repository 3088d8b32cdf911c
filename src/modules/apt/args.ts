// ansible.builtin.apt's arguments (ansible-core 2.14) that hostwire drives; the others (upgrade,
// default_release, build-dep...) are refused by the strict schema, naming them.
import { z } from 'zod';
import { ansibleBool, ansibleInt, withAliases } from '../kit/ansible-args.js';
import { ansibleStrList } from '../kit/ansible-list.js';
import type { AptWant } from '../kit/apt-plan.js';

// A package name (wildcards *?[]! allowed, as the module fnmatches them over the cache), optionally
// =VERSION (a wildcard pattern) or >=VERSION. No other character: a name is used as a shell case pattern.
const SPEC = /^[A-Za-z0-9*?[\]!][A-Za-z0-9+._:~*?[\]!-]*(?:>?=[A-Za-z0-9+._:~*?[\]-]+)?$/;

const spec = z.string().transform((s, ctx) => {
  const trimmed = s.trim();
  if ((trimmed.match(/=/g) ?? []).length > 1) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `invalid package spec: ${trimmed}` });
  else if (trimmed === '*') ctx.addIssue({ code: z.ZodIssueCode.custom, message: "name '*' (upgrade every installed package) is not built: use a command task with apt-get upgrade" });
  else if (!SPEC.test(trimmed)) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a package name, name=VERSION or name>=VERSION (letters, digits, + . - _ : ~ and the wildcards * ? [ ] !): ${JSON.stringify(s)}` });
  return trimmed;
});

const dpkgOptions = z.string().regex(/^[A-Za-z0-9_-]+(?:=[A-Za-z0-9_./-]+)?(?:,[A-Za-z0-9_-]+(?:=[A-Za-z0-9_./-]+)?)*$/, 'expected comma-separated dpkg options without the leading --, e.g. force-confdef,force-confold');

export const aptArgs = withAliases(
  z
    .object({
      name: ansibleStrList.pipe(z.array(spec)).optional(),
      state: z.enum(['present', 'absent', 'latest'], { errorMap: () => ({ message: 'expected present, absent or latest (build-dep and fixed are not built)' }) }).default('present'),
      update_cache: ansibleBool.optional(),
      cache_valid_time: ansibleInt.pipe(z.number().min(0, 'expected seconds (0 or more)')).default(0),
      purge: ansibleBool.default(false),
      autoremove: ansibleBool.default(false),
      install_recommends: ansibleBool.optional(),
      deb: z.string().regex(/^\/[^\0-\x1f\x7f]*\.deb$/, 'expected the absolute path of a .deb file on the host').optional(),
      dpkg_options: dpkgOptions.default('force-confdef,force-confold'),
    })
    .strict()
    .superRefine((a, ctx) => {
      if (a.deb !== undefined && a.name !== undefined) ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'parameters are mutually exclusive: deb|package|upgrade' });
      if (a.deb !== undefined && a.state !== 'present') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['state'], message: 'deb only supports state=present' });
    }),
  { name: ['package', 'pkg'], update_cache: ['update-cache'], install_recommends: ['install-recommends'] },
);

export type AptArgs = z.infer<typeof aptArgs>;

export const aptWant = (a: AptArgs): AptWant => ({
  names: a.name ?? [],
  state: a.state,
  purge: a.purge,
  autoremove: a.autoremove,
  installRecommends: a.install_recommends,
  dpkgOptions: a.dpkg_options,
  deb: a.deb,
  updateCache: a.update_cache,
  cacheValidTime: a.cache_valid_time,
});
