import test from 'ava';
import { readFileSync } from 'node:fs';
import { parseStat } from '../../src/modules/kit/file-stat.js';
import { editIni } from '../../src/modules/ini_file/edit.js';
import { getModule } from '../../src/modules/all.js';

const load = (name: string) => parseStat(JSON.parse(readFileSync(new URL(`../../../src/modules/file/cases/${name}.json`, import.meta.url), 'utf8')));
const nm = load('nm-conf').content!.toString(); // [main] plugins=...  [ifupdown] managed=false
const ovs = load('default-ovs').content!.toString();
const set = (section: string | null, option: string, value?: string, noExtraSpaces = false) => ({ section, option, value, state: 'present' as const, noExtraSpaces });

test('replaces an option in place and inserts a new one at the end of its section', (t) => {
  t.is(editIni(nm, set('ifupdown', 'managed', 'true', true)), nm.replace('managed=false', 'managed=true'));
  t.is(editIni(nm, set('main', 'dns', 'none')), nm.replace('plugins=ifupdown,keyfile\n', 'plugins=ifupdown,keyfile\ndns = none\n'));
  const same = editIni(nm, set('main', 'plugins', 'ifupdown,keyfile', true));
  t.is(same, nm);
});

test('adds a missing section at the end; absent removes an option or a whole section', (t) => {
  t.is(editIni(nm, set('keyfile', 'unmanaged-devices', 'interface-name:veth*', true)), nm + '[keyfile]\nunmanaged-devices=interface-name:veth*\n');
  t.is(editIni(nm, { section: 'ifupdown', option: 'managed', state: 'absent', noExtraSpaces: false }), nm.replace('managed=false\n', ''));
  t.is(editIni(nm, { section: 'ifupdown', state: 'absent', noExtraSpaces: false }), '[main]\nplugins=ifupdown,keyfile\n\n');
  t.is(editIni(nm, { section: 'nope', option: 'x', state: 'absent', noExtraSpaces: false }), nm);
  t.is(editIni(nm, { section: 'ifupdown', option: 'managed', value: 'true', state: 'absent', noExtraSpaces: false }), nm);
});

test('section null edits the lines before any header (/etc/default files), uncommenting a commented option', (t) => {
  const out = editIni(ovs, set(null, 'OVS_CTL_OPTS', "'--no-mlockall'", true));
  t.true(out.includes("\nOVS_CTL_OPTS='--no-mlockall'\n"));
  t.false(out.includes('# OVS_CTL_OPTS=\n'));
  t.is(out.split('\n').length, ovs.split('\n').length);
  t.is(editIni(out, set(null, 'OVS_CTL_OPTS', "'--no-mlockall'", true)), out);
  t.is(editIni('A=1\n[s]\nB=2\n', set(null, 'C', '3', true)), 'A=1\nC=3\n[s]\nB=2\n');
});

test('one value per option: later active duplicates are dropped, blank line before next header kept', (t) => {
  t.is(editIni('[a]\nk = 1\nk = 2\n\n[b]\nk = 3\n', set('a', 'k', '5')), '[a]\nk = 5\n\n[b]\nk = 3\n');
  t.is(editIni('[a]\nx = 1\n\n[b]\n', set('a', 'k', '5')), '[a]\nx = 1\nk = 5\n\n[b]\n');
});

test('schema: section may be omitted or null; numbers and booleans become strings', (t) => {
  const m = getModule('ini_file')!;
  t.like(m.args.parse({ path: '/etc/default/x', option: 'A', value: 5 }), { section: null, value: '5' });
  t.like(m.args.parse({ path: '/x', section: 'main', option: 'A', value: true }), { value: 'true' });
  t.false(m.args.safeParse({ path: '/x', section: 'main', option: 'A', vlaue: 1 }).success);
});
