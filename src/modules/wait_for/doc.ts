import type { ModuleDoc } from '../types.js';

export const waitForDoc: ModuleDoc = {
  description:
    'Waits until a TCP port opens (or closes), a path appears (or goes, or contains a regex), or a command succeeds. ' +
    'The whole loop runs on the host in one exec; it is read-only, so it also runs under --check. Fails with msg when ' +
    'the timeout passes.',
  args: {
    host: 'The address whose port is tried (from the managed host).',
    port: 'The TCP port.',
    path: 'A file to wait for.',
    search_regex: 'With path: wait until the file\'s content matches this regular expression.',
    command: 'A shell command to wait for until it exits 0 (not in Ansible\'s wait_for).',
    state: 'started/present: wait until it is there; stopped/absent: until it is gone.',
    timeout: 'Seconds to wait at most.',
    delay: 'Seconds to wait before the first try.',
    sleep: 'Seconds between tries.',
    msg: 'The failure message when the timeout passes.',
  },
  example: '- wait_for:\n    port: 6443\n    timeout: 120',
  check: 'full',
  diff: 'none',
};
