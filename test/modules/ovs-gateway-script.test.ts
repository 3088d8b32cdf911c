// The host-side script of the uplink move stays checkable: the whole generated script and the NM
// backend's staged commands parse with `sh -n` (dash, the host's /bin/sh on Debian), every step of
// the apply is checked (no bare command whose failure would be ignored), and the rollback sweeps
// back to the snapshot and removes what the run installed.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ovsGatewayArgs } from '../../src/modules/ovs_gateway/args.js';
import { parseGatewayProbe } from '../../src/modules/ovs_gateway/parse.js';
import { isTxnChange, planUplink, type TxnChange } from '../../src/modules/ovs_gateway/plan-uplink.js';
import { SCRIPT } from '../../src/modules/ovs_gateway/script/index.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hw-ovs-script-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

/** `sh -n` and `dash -n`: '' when the text parses, else the shell's complaint. */
function syntaxErrors(name: string, text: string): string {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  const errs: string[] = [];
  for (const sh of ['sh', 'dash']) {
    try {
      execFileSync(sh, ['-n', f], { stdio: 'pipe' });
    } catch (e) {
      errs.push(`${sh}: ${String((e as { stderr?: Buffer }).stderr ?? e)}`);
    }
  }
  return errs.join('\n');
}

test('the generated host script parses with sh -n', (t) => {
  t.is(syntaxErrors('configure-ovs', SCRIPT), '');
  t.true(SCRIPT.startsWith('#!/bin/sh\n'));
  // A broken script is caught by the same check (the test would notice a regression).
  t.not(syntaxErrors('broken', `${SCRIPT}\nif true; then\n`), '');
});

test('the NM backend\'s staged commands parse with sh -n', (t) => {
  const caseText = readFileSync(new URL('../../../src/modules/ovs_gateway/cases/probe-static-fresh.txt', import.meta.url), 'utf8');
  const s = parseGatewayProbe(caseText);
  const [m] = planUplink(s, ovsGatewayArgs.parse({ mode: 'uplink', backend: 'nm' })).filter(isTxnChange) as TxnChange[];
  t.truthy(m!.txn.nm);
  t.is(syntaxErrors('br-ex.nm', m!.txn.nm!), '');
});

test('every command of apply_bridge that changes the host is a checked step', (t) => {
  const body = /\napply_bridge\(\) \{\n([\s\S]*?)\n\}\n/.exec(SCRIPT)![1]!;
  const changing = body.split('\n').filter((l) => /^\s*(vsctl|ip (link|addr|route)|nft|sh )/.test(l.trim()) || /\bstep\b/.test(l));
  t.true(changing.length >= 8, changing.join('\n'));
  for (const l of changing) t.regex(l, /\bstep\b|\|\| (return 1|\{)/, `unchecked: ${l}`);
  t.regex(body, /step (vsctl|ovs-vsctl --timeout=60) --may-exist add-br "\$BRIDGE"[\s\S]*\|\| return 1\n\s*ovs_port_ok "\$UPLINK" "\$MTU" \|\| return 1/);
});

test('the rollback returns to the snapshot, reports what it could not restore, and removes what the run installed', (t) => {
  const rollback = /\nrollback\(\) \{\n([\s\S]*?)\n\}\n/.exec(SCRIPT)![1]!;
  t.regex(rollback, /restore_snapshot "\$SNAP"/);
  t.regex(rollback, /NOT restored: \$left/);
  t.regex(rollback, /restore_installed "\$LIB\/installed-\$ID" "\$LIB\/orig-\$ID"/);
  const txn = /\ntxn\(\) \{\n([\s\S]*?)\n\}\n/.exec(SCRIPT)![1]!;
  t.true(txn.indexOf('snapshot "$SNAP"') < txn.indexOf('apply_bridge'), 'the snapshot is taken before the first step');
  t.regex(txn, /check_all \|\| rollback "at the confirmation: \$FAILED"/);
});
