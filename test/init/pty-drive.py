#!/usr/bin/env python3
# Drives a command through a pseudo-terminal for the wizard tests: argv[1] is a JSON file with
# {"cmd": [...], "cwd": "...", "steps": [[regex, text-to-send], ...]}. Each step waits (20 s max)
# for the regex in the ANSI-stripped output seen since the previous step, then types the text.
# Prints {"code": N, "output": "...", "failed_step": i|null} as JSON on stdout.
import json, os, pty, re, select, sys, time

spec = json.load(open(sys.argv[1]))
ansi = re.compile(r'\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r')
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec.get('cwd', '.'))
    env = dict(os.environ, TERM='xterm', COLUMNS='120', LINES='40')
    env.pop('CI', None)
    os.execvpe(spec['cmd'][0], spec['cmd'], env)

raw = b''
def read_some(timeout):
    global raw
    r, _, _ = select.select([fd], [], [], timeout)
    if not r:
        return True
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        return False
    if not chunk:
        return False
    raw += chunk
    return True

failed = None
mark = 0
for i, (pattern, text) in enumerate(spec['steps']):
    deadline = time.time() + 20
    rx = re.compile(pattern)
    alive = True
    while True:
        seen = ansi.sub('', raw[mark:].decode('utf8', 'replace'))
        m = rx.search(seen)
        if m:
            break
        if not alive or time.time() > deadline:
            failed = i
            break
        alive = read_some(0.2)
    if failed is not None:
        break
    mark = len(raw)
    time.sleep(0.15)
    for ch in text:
        os.write(fd, ch.encode())
        time.sleep(0.01)

# Read until the child exits (then drain what is left), at most 30 s.
status = None
deadline = time.time() + 30
while failed is None and time.time() < deadline:
    done, st = os.waitpid(pid, os.WNOHANG)
    if done:
        status = st
        break
    if not read_some(0.2):
        break
while read_some(0.05) and select.select([fd], [], [], 0)[0]:
    pass
if status is None:
    if failed is not None or time.time() >= deadline:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
    _, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
print(json.dumps({'code': code, 'output': ansi.sub('', raw.decode('utf8', 'replace')), 'failed_step': failed}))
