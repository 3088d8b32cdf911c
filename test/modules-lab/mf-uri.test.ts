// uri on a real lab host against a web server inside the lab (python3 -m http.server on the host's
// loopback): the result's keys as ansible-core 2.14's uri registered them on a lab host (headers as
// keys, json, content, the status_code failure), creates makes it a no-op, --check skips it as
// Ansible's (uri has no check mode), and a body_format json POST reaches the server as JSON.
import test from 'ava';
import { labModuleTest } from '../helpers/lab-converge.js';
import { testLabName } from '../helpers/lab-name.js';

const lab = labModuleTest(testLabName(import.meta.url));

const BASE = 'http://127.0.0.1:8089';
// A server that also answers POST by echoing the request's content type and body as JSON.
const SERVER = `import http.server, json
class H(http.server.SimpleHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
        out = json.dumps({"type": self.headers.get("Content-Type"), "body": body}).encode()
        self.send_response(201); self.send_header("Content-Type", "application/json"); self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
http.server.ThreadingHTTPServer(("127.0.0.1", 8089), lambda *a: H(*a, directory="/srv/www")).serve_forever()
`;

const PLAY = `
- hosts: all
  gather_facts: false
  tasks:
    - name: get
      uri: { url: '${BASE}/data.json' }
      register: r
    - name: content
      ansible.builtin.uri: { url: '${BASE}/hello.txt', return_content: yes }
    - name: post
      uri: { url: '${BASE}/api', method: post, body_format: json, body: { name: "{{ '{{' }} x }}", list: [1, 2] }, status_code: 201 }
    - name: missing
      uri: { url: '${BASE}/none', creates: /etc/hostname }
    - name: notfound
      uri: { url: '${BASE}/none' }
      ignore_errors: true
`;

test('uri on a lab host: Ansible\'s result keys, json and content, POST json, creates, --check skips', async (t) => {
  t.timeout(4 * 60_000);
  const { host, play } = await lab.up();
  await host.transport.writeFile('/srv/mfuri-server.py', SERVER, { mode: '0644' });
  await host.sh(`mkdir -p /srv/www && printf 'hello world\\n' > /srv/www/hello.txt && printf '{"a": 1, "b": [1,2]}' > /srv/www/data.json && systemd-run -q --unit=mfuri python3 /srv/mfuri-server.py && for i in $(seq 50); do python3 -c "import urllib.request; urllib.request.urlopen('${BASE}/')" 2>/dev/null && break; sleep 0.1; done`);
  const name = host.state.hosts[0]!.name;

  const run = await play('run', PLAY);
  t.like(run.summary.stats[name], { changed: 0, failed: 0, ignored: 1 });
  const get = run.result('get');
  t.deepEqual(Object.keys(get).filter((k) => k !== 'outcome').sort(), ['changed', 'content_length', 'content_type', 'cookies', 'cookies_string', 'date', 'elapsed', 'failed', 'json', 'last_modified', 'msg', 'redirected', 'server', 'status', 'url'].sort());
  t.like(get, { status: 200, json: { a: 1, b: [1, 2] }, content_type: 'application/json', content_length: '20', msg: 'OK (20 bytes)', redirected: false, cookies: {}, cookies_string: '' });
  t.like(run.result('content'), { content: 'hello world\n' });
  t.like(run.result('post'), { status: 201, json: { type: 'application/json', body: '{"name": "{{ x }}", "list": [1, 2]}' } });
  t.like(run.result('missing'), { stdout: "skipped, since '/etc/hostname' exists", changed: false });
  t.like(run.result('notfound'), { failed: true, status: 404, msg: 'Status code was 404 and not [200]: HTTP Error 404: File not found' });

  const checked = await play('check', PLAY, { check: true });
  t.like(checked.result('get'), { outcome: 'skipped', msg: 'remote module (ansible.legacy.uri) does not support check mode' });
  t.like(checked.summary.stats[name], { changed: 0, failed: 0 });
});
