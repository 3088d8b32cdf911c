// Ansible's tag selection: --tags/--skip-tags with the special always, never, tagged, untagged, all.
export interface TagFilter {
  tags: string[];
  skipTags: string[];
}

export function shouldRunByTags(taskTags: string[], f: TagFilter): boolean {
  const has = (t: string) => taskTags.includes(t);
  const requested = f.tags.length > 0 ? f.tags : ['all'];
  if (f.skipTags.some((t) => has(t) || (t === 'tagged' && taskTags.length > 0) || (t === 'untagged' && taskTags.length === 0))) return false;
  if (has('never') && !requested.some((t) => t !== 'never' && has(t)) && !requested.includes('never')) return false;
  if (has('always') && !f.skipTags.includes('always')) return true;
  if (requested.includes('all')) return !has('never') || requested.some((t) => t !== 'all' && has(t));
  return requested.some((t) => has(t) || (t === 'tagged' && taskTags.length > 0) || (t === 'untagged' && taskTags.length === 0));
}
