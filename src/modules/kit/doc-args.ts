// Argument descriptions several modules' docs share (the attributes of a written file).
export const fileAttrDocs = {
  mode: 'Permissions as octal (0644, quoted in YAML) or symbolic (u=rw,g=r,o=r, g-w, a+X), computed as Ansible does against the path\'s current mode (a new one: 0666/0777 less the umask); unset leaves them as they are (new files: the umask\'s).',
  owner: 'User that owns the file (a name or a uid).',
  group: 'Group of the file (a name or a gid).',
};

export const backupDoc = 'Copy the old file to <path>.<pid>.<YYYY-MM-DD@HH:MM:SS>~ (Ansible\'s name, host local time) before changing it; the name is returned as backup_file.';

export const validateDoc =
  'A command that must succeed on the new content before it replaces the file, %s naming it (a temp file beside dest, with its final mode and owner), as `visudo -cf %s`; run without a shell, every word quoted; when it fails the file is left untouched and the task fails with its output.';
