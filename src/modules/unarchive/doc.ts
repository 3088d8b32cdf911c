import type { ModuleDoc } from '../types.js';

export const unarchiveDoc: ModuleDoc = {
  description:
    'Unpacks a tar archive (plain, gzip, bzip2, xz, zstd - as the host\'s GNU tar and compressors allow) into an existing ' +
    'folder, as ansible.builtin.unarchive 2.14 does: the controller\'s archive (role files/, then the playbook folder) is ' +
    'streamed once over the host\'s connection into a private temp folder and removed after, or remote_src names one on ' +
    'the host; the handler is the first of TgzArchive, TarArchive, TarBzipArchive, TarXzArchive, TarZstdArchive whose ' +
    'tar --list works; `tar --diff` decides whether anything must be unpacked (is_unarchived: a difference in an attribute ' +
    'the task sets anyway does not count); mode/owner/group are then set on every listed file and top folder. The result ' +
    'has unarchive.py\'s keys: handler, dest, src, changed, extract_results (cmd, rc, out, err) when it unpacked, files with ' +
    'list_files, and dest\'s uid, gid, owner, group, mode, state, size. Archives are untrusted: a member with an absolute ' +
    'name or a \'..\' component, or a link pointing outside dest, is refused before anything is unpacked (Ansible strips the ' +
    'leading / and lets tar skip \'..\' members). Differences: --check predicts from tar --diff (Ansible skips tar archives ' +
    'under --check); a missing or changed symlink counts as a difference (Ansible misses it); zip archives (unzip), a URL ' +
    'src, validate_certs and io_buffer_size are not supported. The deprecated copy is read as the action plugin reads ' +
    'it: copy: false is remote_src: true.',
  args: {
    src: 'The archive: a controller path (role files/ first), or with remote_src a path on the host.',
    dest: 'The existing folder to unpack into (absolute).',
    remote_src: 'src is already on the host.',
    creates: 'Skip the task when this path exists on the host.',
    list_files: 'Return the archive\'s member names as files.',
    keep_newer: 'Do not replace files newer than the archive\'s (tar --keep-newer-files).',
    exclude: 'Members not to unpack (tar --exclude=, and left out of files by fnmatch).',
    include: 'Only these members (tar operands); not with exclude.',
    extra_opts: 'More tar options, after --show-transformed-names (e.g. --strip-components=1).',
    decrypt: 'Accepted as Ansible\'s; a vault-encrypted archive is refused (not decrypted).',
    mode: 'Mode set on every unpacked file and top folder (octal or symbolic).',
    owner: 'Owner set on every unpacked file and top folder.',
    group: 'Group set on every unpacked file and top folder.',
  },
  example: '- unarchive:\n    src: app.tar.gz\n    dest: /opt/app\n    extra_opts: [--strip-components=1]\n    owner: app',
  check: 'full',
  diff: 'none',
};
