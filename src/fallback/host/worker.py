# hostwire's fallback worker: runs Ansible modules on this host for one hostwire run.
# Started once per host (and become user) over the run's connection as `python3 -c <this file> [HASH]`
# (HASH: the run's payload, preloaded when present);
# it ends when its stdin closes (the run ended or the connection dropped).
#
# Protocol: frames of a 4-byte big-endian length and that many bytes of UTF-8 JSON, both ways.
#   worker -> {"op": "hello", "python": "3.11.2", "pid": 123, "present": bool}  (once, at start;
#             present: whether the HASH named on the command line is here, so no "have" is needed)
#   {"op": "have", "hash": H}                 -> {"ok": true, "present": bool}
#   {"op": "put", "hash": H, "zip": base64}   -> {"ok": true}   (verified by sha256, unpacked, kept)
#   {"op": "run", "hash": H, "fqn": "ansible.modules.getent", "args": {...}, "env": {...}}
#                                             -> {"ok": true, "rc": 0, "stdout": "...", "stderr": "..."}
#   any failure of the worker itself          -> {"ok": false, "error": "..."}
# Payloads live in ~/.cache/hostwire/ansible/<sha256>/ (0700 dirs, 0600 files): a later run finds
# them there and uploads nothing. Each module runs in a forked child (its own process group), so
# what it imports, changes or leaks ends with it, while the parent keeps ansible.module_utils.basic
# imported: a call costs a fork, not a Python start.
import base64
import gc
import hashlib
import io
import json
import os
import select
import signal
import struct
import sys
import zipfile

CACHE = os.path.join(os.path.expanduser('~'), '.cache', 'hostwire', 'ansible')
PRIVATE_DIRS = (os.path.join(os.path.expanduser('~'), '.cache', 'hostwire'), CACHE)
HEX = set('0123456789abcdef')
state = {'preloaded': None}


def send(obj):
    data = json.dumps(obj).encode('utf-8')
    os.write(1, struct.pack('>I', len(data)))
    view = memoryview(data)
    while view:
        n = os.write(1, view)
        view = view[n:]


class Input(object):
    """Frames read from stdin with os.read, so select() on fd 0 tells the truth."""

    def __init__(self):
        self.buf = b''
        self.eof = False

    def fill(self):
        chunk = os.read(0, 1 << 16)
        if not chunk:
            self.eof = True
        self.buf += chunk

    def frame(self):
        while True:
            if len(self.buf) >= 4:
                (size,) = struct.unpack('>I', self.buf[:4])
                if len(self.buf) >= 4 + size:
                    data, self.buf = self.buf[4:4 + size], self.buf[4 + size:]
                    return json.loads(data.decode('utf-8'))
            if self.eof:
                return None
            self.fill()


def private_dir(path):
    """Creates `path` 0700, or checks that an existing one is ours and not writable by others."""
    parent = os.path.dirname(path)
    if not os.path.isdir(parent):
        os.makedirs(parent, 0o700)
    try:
        os.mkdir(path, 0o700)
    except OSError:
        pass
    st = os.lstat(path)
    if not os.path.isdir(path) or os.path.islink(path) or st.st_uid != os.geteuid() or st.st_mode & 0o022:
        raise RuntimeError('%s must be a directory owned by uid %d and not group/world-writable' % (path, os.geteuid()))


def payload_dir(digest):
    if len(digest) != 64 or not set(digest) <= HEX:
        raise RuntimeError('bad payload hash %r' % digest)
    return os.path.join(CACHE, digest)


def have(req):
    return {'ok': True, 'present': os.path.isfile(os.path.join(payload_dir(req['hash']), '.complete'))}


def put(req):
    final = payload_dir(req['hash'])
    data = base64.b64decode(req['zip'])
    if hashlib.sha256(data).hexdigest() != req['hash']:
        raise RuntimeError('payload does not match its sha256')
    for d in PRIVATE_DIRS:
        private_dir(d)
    tmp = '%s.tmp-%d' % (final, os.getpid())
    os.mkdir(tmp, 0o700)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        for name in zf.namelist():
            parts = name.split('/')
            if name.startswith('/') or '..' in parts or name.endswith('/'):
                raise RuntimeError('unsafe path in payload: %r' % name)
            target = os.path.join(tmp, *parts)
            parent = os.path.dirname(target)
            if not os.path.isdir(parent):
                os.makedirs(parent, 0o700)
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, 'wb') as f:
                f.write(zf.read(name))
    open(os.path.join(tmp, '.complete'), 'w').close()
    try:
        os.rename(tmp, final)
    except OSError:
        # Another run put the same content there first: keep theirs.
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    return {'ok': True}


def extend_packages(root):
    """Packages the parent imported from another payload also search this one (`ansible.module_utils.x`)."""
    for name, mod in list(sys.modules.items()):
        paths = getattr(mod, '__path__', None)
        if not isinstance(paths, list) or not name.startswith(('ansible', 'ansible_collections')):
            continue
        candidate = os.path.join(root, *name.split('.'))
        if os.path.isdir(candidate) and candidate not in paths:
            paths.insert(0, candidate)


def preload(root):
    """Import basic once in the parent (every module imports it) so each forked call skips that cost."""
    if state['preloaded'] is not None:
        return
    state['preloaded'] = root
    sys.path.insert(0, root)
    try:
        import ansible.module_utils.basic  # noqa: F401
    except Exception:
        pass


UTIL_IMPORT = None


def preimport_utils(root, fqn):
    """Import in the parent the module_utils a module names (library code, made to be imported), once per
    module: its later calls' children find them in sys.modules (2-7 ms a call measured on lab hosts). The
    module itself is never imported here: its code runs only in a child."""
    global UTIL_IMPORT
    if fqn in state.setdefault('utils_done', set()):
        return
    state['utils_done'].add(fqn)
    if UTIL_IMPORT is None:
        import re
        UTIL_IMPORT = re.compile(r'^\s*(?:from\s+(ansible(?:_collections)?\.[\w.]*module_utils[\w.]*)\s+import|import\s+(ansible(?:_collections)?\.[\w.]*module_utils[\w.]*))', re.M)
    try:
        with open(os.path.join(root, *fqn.split('.')) + '.py', 'rb') as f:
            text = f.read().decode('utf-8', 'replace')
        import importlib
        extend_packages(root)
        for m in UTIL_IMPORT.finditer(text):
            try:
                importlib.import_module(m.group(1) or m.group(2))
            except Exception:
                pass
    except Exception:
        pass


def child(req, root, out_w, err_w):
    os.setpgid(0, 0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(out_w, 1)
    os.dup2(err_w, 2)
    code = 1
    try:
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.environ.update(req.get('env') or {})
        if root not in sys.path:
            sys.path.insert(0, root)
        extend_packages(root)
        import runpy
        from ansible.module_utils import basic
        basic._ANSIBLE_ARGS = json.dumps({'ANSIBLE_MODULE_ARGS': req['args']}).encode('utf-8')
        fqn = req['fqn']
        sys.argv = [os.path.join(root, *fqn.split('.')) + '.py']
        runpy.run_module(mod_name=fqn, init_globals=dict(_module_fqn=fqn, _modlib_path=root), run_name='__main__', alter_sys=True)
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException:
        import traceback
        traceback.print_exc()
    finally:
        try:
            import atexit
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)


def stop(pid):
    """End a running module and everything it started (its process group)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except OSError:
            return
        for _ in range(20):
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
            select.select([], [], [], 0.1)


def run(req, inp):
    root = payload_dir(req['hash'])
    if not os.path.isfile(os.path.join(root, '.complete')):
        return {'ok': False, 'error': 'payload %s is not on this host' % req['hash']}
    preload(root)
    preimport_utils(root, req['fqn'])
    # What the parent imported moves to the collector's permanent generation: the child's collections
    # skip it, so they neither spend time on it nor touch (copy) its pages.
    if hasattr(gc, 'freeze'):
        gc.freeze()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(out_r)
        os.close(err_r)
        child(req, root, out_w, err_w)
    os.close(out_w)
    os.close(err_w)
    chunks = {out_r: [], err_r: []}
    open_fds = [out_r, err_r]
    while open_fds:
        watch = open_fds + ([] if inp.eof else [0])
        ready = select.select(watch, [], [])[0]
        if 0 in ready:
            inp.fill()
            if inp.eof:
                # The controller is gone (run ended, interrupted, connection dropped): stop the module.
                stop(pid)
                os._exit(0)
        for fd in ready:
            if fd == 0:
                continue
            data = os.read(fd, 1 << 16)
            if data:
                chunks[fd].append(data)
            else:
                open_fds.remove(fd)
                os.close(fd)
    status = os.waitpid(pid, 0)[1]
    rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status)
    text = lambda fd: b''.join(chunks[fd]).decode('utf-8', 'replace')
    return {'ok': True, 'rc': rc, 'stdout': text(out_r), 'stderr': text(err_r)}


def main():
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    present = False
    if len(sys.argv) > 1:
        # The controller names the run's payload: when it is here, basic is imported before hello,
        # and hello says so (the controller then skips its "have" round trip).
        try:
            root = payload_dir(sys.argv[1])
            present = os.path.isfile(os.path.join(root, '.complete'))
            if present:
                preload(root)
        except Exception:
            present = False
    inp = Input()
    send({'op': 'hello', 'python': '%d.%d.%d' % sys.version_info[:3], 'pid': os.getpid(), 'present': present})
    ops = {'have': lambda r: have(r), 'put': lambda r: put(r), 'run': lambda r: run(r, inp)}
    while True:
        req = inp.frame()
        if req is None:
            return
        try:
            handler = ops.get(req.get('op'))
            reply = handler(req) if handler else {'ok': False, 'error': 'unknown op %r' % req.get('op')}
        except Exception as e:
            reply = {'ok': False, 'error': '%s: %s' % (type(e).__name__, e)}
        send(reply)


main()
