// Where a role name leads, as ansible-core 2.14's RoleDefinition._load_role_path looks: a collection
// role first (`ns.coll.role`, or a short name in the play's `collections:`), then the name joined to
// each search path - the playbook's roles/, the configured roles path, for a meta dependency the folder
// holding the role that depends on it, the playbook's own folder - so `container-engine/containerd` and
// `../../common` are found below any of them; last the name as a path from the working directory.
// A role found in a search path keeps its name as written; one found as a path is named by its basename.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { resolvePath } from '../../config/settings.js';

export interface RoleSearch {
  /** The folder of the playbook file holding the play (Ansible's loader basedir). */
  playbookDir: string;
  /** --roles-path, then ANSIBLE_ROLES_PATH / ansible.cfg roles_path (or Ansible's default). */
  rolesPath: string[];
  /** Collection roots (each holding ansible_collections/<ns>/<coll>); asked only for a collection role. */
  collectionRoots?: () => string[];
  /** The play's `collections:` list: short role names are looked up in these collections first. */
  collections?: string[];
  /** hostwire's own last resort, after everything Ansible searches: ./roles of the working directory. */
  extraPaths?: string[];
  cwd?: string;
}

export interface FoundRole {
  /** The role's name as Ansible names it (role_name): as written, or the basename of a path. */
  name: string;
  dir: string;
  /** `ns.coll` for a collection role (shown as ns.coll.name). */
  collection?: string;
}

export interface RoleNotFound {
  /** Every place looked, in order, for the error message. */
  looked: string[];
}

const IDENT = /^\w+$/;

/** ns.coll.role or ns.coll.sub.role, as AnsibleCollectionRef.is_valid_fqcr reads a role reference. */
function parseCollectionRole(name: string): { collection: string; subdirs: string[]; role: string } | undefined {
  const parts = name.split('.');
  if (parts.length < 3 || !parts.every((p) => IDENT.test(p))) return undefined;
  return { collection: `${parts[0]}.${parts[1]}`, subdirs: parts.slice(2, -1), role: parts[parts.length - 1]! };
}

function collectionRole(name: string, search: RoleSearch): FoundRole | undefined {
  const ref = parseCollectionRole(name);
  const candidates = ref ? [ref] : IDENT.test(name) ? (search.collections ?? []).map((collection) => ({ collection, subdirs: [] as string[], role: name })) : [];
  if (!candidates.length) return undefined;
  const roots = search.collectionRoots?.() ?? [];
  for (const c of candidates) {
    const [ns, coll] = c.collection.split('.') as [string, string];
    if (!ns || !coll) continue;
    for (const root of roots) {
      const dir = path.join(root, 'ansible_collections', ns, coll, 'roles', ...c.subdirs, c.role);
      if (isDir(dir)) return { name: c.role, dir: realpathSync(dir), collection: c.collection };
    }
  }
  return undefined;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The paths a role name is joined to, in Ansible's order (ownerRoleDir: the role whose meta lists it). */
export function roleSearchPaths(search: RoleSearch, ownerRoleDir?: string): string[] {
  return [
    path.join(search.playbookDir, 'roles'),
    ...search.rolesPath,
    ...(ownerRoleDir ? [path.dirname(ownerRoleDir)] : []),
    search.playbookDir,
  ];
}

export function resolveRolePath(name: string, search: RoleSearch, ownerRoleDir?: string): FoundRole | RoleNotFound {
  const fromCollection = collectionRole(name, search);
  if (fromCollection) return fromCollection;
  const cwd = search.cwd ?? process.cwd();
  const paths = roleSearchPaths(search, ownerRoleDir);
  for (const base of paths) {
    // os.path.join: an absolute name replaces the base.
    const dir = resolvePath(path.isAbsolute(name) ? name : path.join(base, name), cwd);
    if (existsSync(dir)) return { name, dir: realpathSync(dir) };
  }
  const asPath = resolvePath(name, cwd);
  if (existsSync(asPath)) return { name: path.basename(name), dir: realpathSync(asPath) };
  for (const base of search.extraPaths ?? []) {
    const dir = path.resolve(base, name);
    if (isDir(dir)) return { name, dir: realpathSync(dir) };
  }
  return { looked: [...new Set([...(search.collections ?? []), ...paths, ...(search.extraPaths ?? [])])] };
}

export function isFoundRole(r: FoundRole | RoleNotFound): r is FoundRole {
  return 'dir' in r;
}
