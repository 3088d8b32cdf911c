import type { ModuleDoc } from '../types.js';
import { urlArgDocs } from '../kit/http-args.js';

export const uriDoc: ModuleDoc = {
  description:
    'Makes an HTTP request from the host, as ansible.builtin.uri (python3\'s urllib there, as Ansible\'s module): its ' +
    'result has the status, the response headers as keys (lower case, - as _), cookies, the decoded content with ' +
    'return_content and json when the response is JSON; a status outside status_code fails. uri has no check mode in ' +
    'Ansible: it is skipped under --check. dest, src, form-multipart, client certificates and unix sockets are not supported.',
  args: {
    ...urlArgDocs,
    force: 'Send cache-control: no-cache.',
    url_username: 'User name for basic authentication (alias user).',
    body: 'The request body; with body_format json or form-urlencoded a mapping or list is encoded.',
    body_format: 'raw, json (Content-Type application/json unless given) or form-urlencoded.',
    method: 'The HTTP method (upper-cased).',
    return_content: 'Return the body as content (also on failure).',
    follow_redirects: 'safe (only GET/HEAD), all/yes/urllib2, or none/no.',
    creates: 'A host path: when it exists, no request is made.',
    removes: 'A host path: when it does not exist, no request is made.',
    status_code: 'The statuses that mean success (a list, default [200]).',
  },
  example: '- uri:\n    url: http://127.0.0.1:8500/v1/status/leader\n    return_content: true\n  register: leader',
  check: 'none',
  diff: 'none',
};
