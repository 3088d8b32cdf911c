import test from 'ava';
import { readFileSync } from 'node:fs';
import {
  checkHostKey, formatKnownHostLine, hashHostName, hostKeyName, hostsFieldMatches, keyTypeOfBlob, knownKeyTypes, parseKnownHosts,
} from '../../src/transports/known-hosts.js';

const fx = (name: string) => readFileSync(new URL(`../../../test/transports/fixtures/${name}`, import.meta.url), 'utf8');
const blobOf = (pub: string) => Buffer.from(pub.trim().split(/\s+/)[1]!, 'base64');
const k1 = blobOf(fx('k1.pub'));
const k2 = blobOf(fx('k2.pub'));
const k3 = blobOf(fx('k3.pub'));
const plain = [{ file: 'plain', entries: parseKnownHosts(fx('known_hosts_plain')) }];
const hashed = [{ file: 'hashed', entries: parseKnownHosts(fx('known_hosts_hashed')) }];

test('parses entries with line numbers, markers and comments skipped', (t) => {
  const e = plain[0]!.entries;
  t.is(e.length, 4);
  t.deepEqual(e.map((x) => x.line), [2, 3, 4, 5]);
  t.is(e[3]!.marker, 'revoked');
  t.is(e[0]!.keyType, 'ssh-ed25519');
});

test('key type comes from the blob', (t) => {
  t.is(keyTypeOfBlob(k1), 'ssh-ed25519');
  t.is(keyTypeOfBlob(k3), 'ecdsa-sha2-nistp256');
});

test('port 22 uses the bare name, others [host]:port', (t) => {
  t.is(hostKeyName('h', 22), 'h');
  t.is(hostKeyName('127.0.0.1', 2222), '[127.0.0.1]:2222');
});

test('plain entries: exact, list, wildcard and negation', (t) => {
  t.is(checkHostKey(plain, '127.0.0.1', 2222, k1).status, 'match');
  t.is(checkHostKey(plain, '127.0.0.1', 22, k1).status, 'unknown');
  t.like(checkHostKey(plain, '10.0.0.5', 22, k2), { status: 'match', line: 3 });
  t.true(hostsFieldMatches('*.lab.example.com,!bad.lab.example.com', 'a.lab.example.com'));
  t.false(hostsFieldMatches('*.lab.example.com,!bad.lab.example.com', 'bad.lab.example.com'));
  t.false(hostsFieldMatches('web?.example.com', 'web10.example.com'));
});

test('a different key of the same type is a change, naming file and line', (t) => {
  t.deepEqual(checkHostKey(plain, '127.0.0.1', 2222, k2), { status: 'changed', file: 'plain', line: 2, knownType: 'ssh-ed25519' });
});

test('a revoked key is refused for any host', (t) => {
  t.like(checkHostKey(plain, 'x.lab.example.com', 22, k3), { status: 'revoked', line: 5 });
});

test('hashed entries written by ssh-keygen -H match, with and without port', (t) => {
  t.like(checkHostKey(hashed, '127.0.0.1', 2222, k1), { status: 'match', line: 1 });
  t.like(checkHostKey(hashed, 'node-a.example.com', 22, k2), { status: 'match', line: 2 });
  t.is(checkHostKey(hashed, 'node-b.example.com', 22, k2).status, 'unknown');
  t.is(checkHostKey(hashed, 'node-a.example.com', 22, k1).status, 'changed');
});

test('hashHostName reproduces the hashed field with the same salt', (t) => {
  const field = hashed[0]!.entries[0]!.hosts;
  const salt = Buffer.from(field.split('|')[2]!, 'base64');
  t.is(hashHostName('[127.0.0.1]:2222', salt), field);
});

test('known key types and the accept-new line', (t) => {
  t.deepEqual(knownKeyTypes(plain, 'a.lab.example.com', 22), ['ecdsa-sha2-nistp256']);
  t.is(formatKnownHostLine('h', 2200, k1), `[h]:2200 ${fx('k1.pub').split(' ').slice(0, 2).join(' ')}`);
});
