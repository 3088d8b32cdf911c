// Argument descriptions several modules' docs share (the attributes of a written file).
export const fileAttrDocs = {
  mode: 'Permissions as octal (0644, quoted in YAML) or symbolic (u=rw,g=r,o=r, g-w, a+X), computed as Ansible does against the path\'s current mode (a new one: 0666/0777 less the umask); unset leaves them as they are (new files: the umask\'s).',
  owner: 'User that owns the file (a name or a uid).',
  group: 'Group of the file (a name or a gid).',
};

export const backupDoc = 'Copy the old file to <path>.<timestamp>~ before changing it.';
