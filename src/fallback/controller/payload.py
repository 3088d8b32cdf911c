# Run on the controller with ansible-core's own Python: builds the payload hostwire ships to a host
# for its fallback modules - the modules and every module_utils file they import, found by
# ansible-core's own finder (executor.module_common.recursive_finder, as AnsiballZ uses it).
#
# stdin:  {"modules": [{"fqn": "ansible.modules.getent", "path": "/.../getent.py"}, ...],
#          "module_utils": ["/dir/with/module_utils", ...]}
#         (collections are found through ANSIBLE_COLLECTIONS_PATH, set by the caller)
# stdout: {"zip": base64, "files": [names], "sources": [paths]}  or  {"error": "..."}
#         sources: the files the payload was made from (the controller keeps the payload while
#         none of them changed, so a later run skips this helper)
# The zip is deterministic (sorted names, fixed timestamps), so its sha256 names the content.
import base64
import io
import json
import sys
import zipfile

REPLACER = b'#<<INCLUDE_ANSIBLE_MODULE_COMMON>>'


class Collect(object):
    """What recursive_finder writes, kept by name (a real ZipFile would stamp the current time)."""

    def __init__(self):
        self.files = {}

    def writestr(self, name, data):
        self.files[name] = data if isinstance(data, bytes) else data.encode('utf-8')

    def namelist(self):
        return list(self.files)


def build(request):
    from ansible.errors import AnsibleError
    from ansible.executor.module_common import recursive_finder, _add_module_to_zip
    from ansible.plugins.loader import module_utils_loader
    for d in request.get('module_utils', []):
        module_utils_loader.add_directory(d)
    out = Collect()
    for m in request['modules']:
        with open(m['path'], 'rb') as f:
            data = f.read().replace(REPLACER, b'from ansible.module_utils.basic import *')
        name = m['fqn'].rsplit('.', 1)[-1]
        try:
            recursive_finder(name, m['fqn'], data, out)
        except AnsibleError as e:
            return {'error': '%s (%s): %s' % (m['fqn'], m['path'], e)}
        _add_module_to_zip(out, m['fqn'], data)
    sources = [m['path'] for m in request['modules']] + find_sources(out.files, request)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, 'w', zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(out.files):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o600 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, out.files[name])
    return {'zip': base64.b64encode(buf.getvalue()).decode('ascii'), 'files': sorted(out.files), 'sources': sorted(set(sources))}


def find_sources(files, request):
    """The file each module_utils entry was read from: the first candidate folder holding the same bytes."""
    import os
    import ansible
    from ansible.module_utils.common.text.converters import to_text
    from ansible.utils.collection_loader import AnsibleCollectionConfig
    core = os.path.dirname(ansible.__file__)
    roots = [to_text(p) for p in AnsibleCollectionConfig.collection_paths]
    found = []
    for name, data in files.items():
        if name.startswith('ansible/module_utils/'):
            rest = name[len('ansible/module_utils/'):]
            candidates = [os.path.join(d, rest) for d in request.get('module_utils', [])] + [os.path.join(core, 'module_utils', rest)]
        elif name.startswith('ansible_collections/'):
            candidates = [os.path.join(r, name) for r in roots]
        else:
            continue
        for c in candidates:
            try:
                with open(c, 'rb') as f:
                    if f.read() == data:
                        found.append(c)
                        break
            except (IOError, OSError):
                pass
    return found


def main():
    request = json.loads(sys.stdin.read())
    try:
        result = build(request)
    except Exception as e:  # reported as data: the caller names the module and what to do
        result = {'error': '%s: %s' % (type(e).__name__, e)}
    sys.stdout.write(json.dumps(result))


main()
