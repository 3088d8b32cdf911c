// get_url: a file from a URL onto the host (ansible.builtin.get_url, ansible-core 2.14: url, dest as a
// file or a folder, checksum `<algorithm>:<digest|URL>`, force, If-Modified-Since, tmp_dest, the
// url_argument_spec options, mode/owner/group, backup; its results and messages). The request is made
// from the host, as Ansible's (kit/http-helper.ts); dest is read in the batched read, and a dest whose
// digest matches the checksum is not downloaded at all. Under --check it sends HEAD and predicts as
// get_url.py does.
import type { Module } from '../types.js';
import { getUrlArgs, type GetUrlArgs } from './args.js';
import { getUrlDestProbe, runGetUrl } from './flow.js';
import { getUrlDoc } from './doc.js';

export const getUrlModule: Module<GetUrlArgs> = {
  name: 'get_url',
  doc: getUrlDoc,
  args: getUrlArgs,
  environment: 'applies',
  readsAhead: (a) => [getUrlDestProbe(a)],
  run: runGetUrl,
};
