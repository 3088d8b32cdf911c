import type { ModuleDoc } from '../types.js';

export const findDoc: ModuleDoc = {
  description:
    'Finds files, folders or links under paths by name (glob or Python regex), age, size and content, as ' +
    'ansible.builtin.find: the same arguments, the registered files list with find.py\'s per-file fields in its ' +
    'os.walk order, matched, examined, skipped_paths and warnings. A pure read, so it runs under --check too. The ' +
    'walk is one GNU find in the play\'s batched read; only contains and get_checksum read the chosen files after. ' +
    'A path\'s ~ is expanded, $VARIABLES are not.',
  args: {
    paths: 'Folders to search (a list or comma-separated) (aliases name, path).',
    patterns: 'Globs (or Python regexes with use_regex) the base name must match one of; default all (alias pattern).',
    excludes: 'Globs (or regexes) that exclude a base name matched by patterns (alias exclude).',
    contains: 'A Python regex a file\'s line must match from its start (or the whole file be searched by, with read_whole_file).',
    read_whole_file: 'Search the whole file with contains instead of matching line by line.',
    file_type: 'file, directory, link or any.',
    age: 'Older than (positive) or newer than (negative) this: a number with s, m, h, d or w (seconds by default).',
    age_stamp: 'The time age compares: mtime, atime or ctime.',
    size: 'At least (positive) or at most (negative) this size: a number with b, k, m, g or t (bytes by default).',
    recurse: 'Descend into subfolders.',
    hidden: 'Also return names starting with a dot.',
    follow: 'Follow symlinked folders while walking.',
    get_checksum: 'Add the sha1 checksum of each regular file.',
    use_regex: 'patterns and excludes are Python regular expressions matched at the start of the name, not globs.',
    depth: 'How many levels deep to report when recursing (the search folder\'s entries are level 1).',
  },
  example: '- find:\n    paths: /etc/NetworkManager/system-connections\n    patterns: "*.nmconnection"\n  register: profiles',
  check: 'full',
  diff: 'none',
};
