import type { ModuleDoc } from '../types.js';

export const asyncStatusDoc: ModuleDoc = {
  description:
    'Reads a job an `async:` task started (ansible.builtin.async_status): while it runs, `started: 1, finished: 0`; ' +
    'once done, the command\'s result (rc, stdout, stderr, start, end, delta) with `finished: 1`, and the job\'s files ' +
    'under ~/.ansible_async/ are erased; a job its time limit killed reads `failed`, `Timeout exceeded`. ' +
    'mode: cleanup erases the job without waiting. Use the same become as the async task (the job lives in that user\'s home).',
  args: {
    jid: 'The job id the async task registered (ansible_job_id, j<digits>.<pid>).',
    mode: 'status (read it) or cleanup (erase its files).',
  },
  example: '- async_status:\n    jid: "{{ job.ansible_job_id }}"\n  register: r\n  until: r.finished\n  retries: 30\n  delay: 5',
  check: 'full',
  diff: 'none',
};
