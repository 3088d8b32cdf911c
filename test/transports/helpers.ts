// Shared bits for transport tests: a transport to a fixture sshd, and a cksum of a buffer.
import { execFileSync } from 'node:child_process';
import { SshTransport, type SshTransportOptions } from '../../src/transports/ssh.js';
import type { SshdFixture } from './sshd-fixture.js';

export function sshTo(s: SshdFixture, extra: Partial<SshTransportOptions> = {}): SshTransport {
  return new SshTransport({
    name: 'fixture', host: '127.0.0.1', port: s.port, user: 'root',
    privateKeyFile: s.keyFile, knownHostsFile: s.knownHostsFile, globalKnownHostsFile: '/nonexistent', ...extra,
  });
}

export function cksum(content: Buffer): string {
  return execFileSync('cksum', { input: content, encoding: 'utf8' }).trim();
}
