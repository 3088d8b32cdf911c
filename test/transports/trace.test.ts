// HOSTWIRE_TRACE lines: the transports sit below the vault, so the masker is passed in; without
// one a trace line shows only a command's length, with one the start is masked before it is cut.
import test from 'ava';
import { setTraceMask, traceCommand } from '../../src/transports/trace.js';
import { addSecret, clearSecrets, maskText } from '../../src/vault/secrets.js';

test.serial('without a masker a traced command shows only its length', (t) => {
  t.is(traceCommand("echo 'hunter22-secret' | passwd"), '(31 characters)');
});

test.serial('with the vault masker a secret never shows, not even cut at the 24-character edge', (t) => {
  t.teardown(clearSecrets);
  addSecret('s3cr3t-v4lue-0123456789');
  setTraceMask(maskText);
  // The secret starts inside the first 24 characters and ends past them: cut first, it would not match.
  const line = traceCommand('printf %s s3cr3t-v4lue-0123456789 > /etc/x');
  t.false(line.includes('s3cr3t'));
  t.is(line, 'printf %s ******** > /et...');
});
