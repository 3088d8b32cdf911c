// Ansible's `type: list, elements: str` (module_utils/common/validation.py check_type_list): a list as
// it is, a string split at each comma (not trimmed), a number as a one-item list; elements as text.
import { z } from 'zod';

const element = z.union([z.string(), z.number(), z.boolean()], { invalid_type_error: 'expected a string' }).transform(String);

export const ansibleStrList = z.preprocess(
  (v) => (typeof v === 'string' ? v.split(',') : typeof v === 'number' ? [String(v)] : v),
  z.array(element, { invalid_type_error: 'expected a list (or a comma-separated string)' }),
);
