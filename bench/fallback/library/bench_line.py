#!/usr/bin/python3
# The bench's own library/ module (as a role or playbook carries one): keeps one exact line in a file.
from ansible.module_utils.basic import AnsibleModule
import os


def main():
    module = AnsibleModule(argument_spec=dict(path=dict(type='path', required=True), line=dict(type='str', required=True)), supports_check_mode=True)
    path, after = module.params['path'], module.params['line'] + '\n'
    before = None
    if os.path.exists(path):
        with open(path) as f:
            before = f.read()
    changed = before != after
    if changed and not module.check_mode:
        if not os.path.isdir(os.path.dirname(path)):
            os.makedirs(os.path.dirname(path), 0o755)
        tmp = path + '.benchtmp'
        with open(tmp, 'w') as f:
            f.write(after)
        module.atomic_move(tmp, path)
    module.exit_json(changed=changed, path=path)


if __name__ == '__main__':
    main()
