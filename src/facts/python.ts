// The host's Python as Ansible reports it (ansible_python, ansible_python_version), read by running
// python3 once (Ansible's interpreter discovery finds /usr/bin/python3 on these hosts). No python3: no facts.
import { ProbeParseError } from '../errors.js';
import type { FactProbe } from './types.js';

export interface PythonFacts {
  executable: string;
  has_sslcontext: boolean;
  type: string;
  version: { major: number; minor: number; micro: number; releaselevel: string; serial: number };
  version_info: [number, number, number, string, number];
}

const SCRIPT = 'import sys,json,platform\ntry:\n import ssl;s=hasattr(ssl,"SSLContext")\nexcept Exception:\n s=False\nv=sys.version_info\nprint(json.dumps({"executable":sys.executable,"has_sslcontext":s,"type":platform.python_implementation().lower(),"version":{"major":v[0],"minor":v[1],"micro":v[2],"releaselevel":v[3],"serial":v[4]},"version_info":list(v)}))';

export const pythonFact: FactProbe<PythonFacts | undefined> = {
  id: 'python',
  command: `command -v python3 >/dev/null 2>&1 && python3 -c '${SCRIPT}'`,
  parse(o) {
    if (o.rc !== 0 && !o.stdout.trim()) return undefined;
    try {
      return JSON.parse(o.stdout.trim()) as PythonFacts;
    } catch {
      throw new ProbeParseError('python3 did not print its version as JSON', o.stdout);
    }
  },
};
