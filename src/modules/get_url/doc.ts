import type { ModuleDoc } from '../types.js';
import { backupDoc, fileAttrDocs } from '../kit/doc-args.js';
import { urlArgDocs } from '../kit/http-args.js';

export const getUrlDoc: ModuleDoc = {
  description:
    'Downloads a URL to a file on the host, as ansible.builtin.get_url: the request is made from the host (python3\'s ' +
    'urllib, as Ansible\'s module does there), into a private temp file beside dest, then moved into place only when its ' +
    'sha1 differs. An existing dest is asked for with If-Modified-Since (a 304 leaves it), and with a checksum that ' +
    'matches it is not downloaded at all. Under --check it sends HEAD and predicts as Ansible does. Redirects are ' +
    'followed; client certificates, GSSAPI, ciphers and netrc are not supported.',
  args: {
    ...urlArgDocs,
    dest: 'The file, or a folder (the name then comes from Content-Disposition or the URL).',
    checksum: '<algorithm>:<digest> or <algorithm>:<URL of a checksum file> (md5, sha1, sha224, sha256, sha384, sha512).',
    tmp_dest: 'Folder on the host for the download before it is moved (default: dest\'s folder).',
    backup: backupDoc,
    ...fileAttrDocs,
  },
  example: '- get_url:\n    url: https://example.com/tool.tar.gz\n    dest: /opt/tool.tar.gz\n    checksum: sha256:0123...\n    mode: "0644"',
  check: 'full',
  diff: 'none',
};
