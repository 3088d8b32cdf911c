// get_url: its arguments, the checksum argument and checksum files as get_url.py reads them, the
// URL's file name, and the host request's text (the password only on stdin). Results against a real
// server: the recorded case and the lab test (test/modules-lab/mf-get-url.test.ts).
import test from 'ava';
import { getModule } from '../../src/modules/all.js';
import { cleanDigest, digestFromFile, parseChecksumArg, urlFilename } from '../../src/modules/get_url/checksum.js';
import { httpCommand, httpStdin, parseHttpResponse } from '../../src/modules/kit/http-helper.js';

const getUrl = getModule('get_url')!;

test('get_url arguments: aliases, defaults, refusals', (t) => {
  t.like(getUrl.args.parse({ url: 'http://h/x', dest: '/d', username: 'u', password: 'p', thirsty: 'yes' }), {
    url_username: 'u', url_password: 'p', force: true, timeout: 10, http_agent: 'ansible-httpget', validate_certs: true, checksum: '', backup: false,
  });
  t.false(getUrl.args.safeParse({ url: 'http://h/x' }).success, 'dest is required');
  t.false(getUrl.args.safeParse({ url: 'http://h/x', dest: '/d', owner: '--reference=/etc/shadow' }).success);
  t.false(getUrl.args.safeParse({ url: 'http://h/x', dest: '/d', client_cert: '/c' }).success, 'not supported: refused, not ignored');
});

test("get_url's checksum argument: <algorithm>:<digest|URL>, cleaned, hex only", (t) => {
  t.deepEqual(parseChecksumArg('sha256:AB-cd\u200b01'), { algorithm: 'sha256', digest: 'abcd01' });
  t.deepEqual(parseChecksumArg('sha1:http://h/SUMS'), { algorithm: 'sha1', url: 'http://h/SUMS' });
  t.deepEqual(parseChecksumArg('abc'), { error: 'The checksum parameter has to be in format <algorithm>:<checksum>' });
  t.deepEqual(parseChecksumArg('sha256:xyz'), { error: 'The checksum format is invalid' });
  t.regex((parseChecksumArg('crc32:00') as { error: string }).error, /unsupported checksum algorithm 'crc32'/);
  t.deepEqual(cleanDigest('md5', ' 0A '), { algorithm: 'md5', digest: '0a' });
});

test('get_url: the digest for the URL file in a checksum file (one bare digest, or digest + name lines)', (t) => {
  t.is(digestFromFile('abc123\n', 'x.tar'), 'abc123');
  const sums = 'aaa  other.tar\nbbb *x.tar\nccc  ./x.tar\n';
  t.is(digestFromFile(sums, 'x.tar'), 'bbb');
  t.is(digestFromFile('ccc  ./x.tar\n', 'x.tar'), 'ccc');
  t.is(digestFromFile(sums, 'none'), undefined);
  t.is(urlFilename('http://h/a/b.tgz?x=1'), 'b.tgz');
  t.is(urlFilename('http://h/'), 'index.html');
});

test("the host request: the program is one quoted python3 -c word; parameters (the password too) go on stdin", (t) => {
  const cmd = httpCommand();
  t.true(cmd.startsWith("python3 -c '"));
  t.false(cmd.includes('s3cret'));
  const stdin = JSON.parse(httpStdin({ url: 'http://h/', method: 'GET', headers: {}, timeout: 5, validate_certs: true, use_proxy: true, follow_redirects: 'safe', password: 's3cret', force_basic_auth: false, save: 'memory', body: Buffer.from('{}') }));
  t.like(stdin, { password: 's3cret', body: 'e30=', digests: [] });
  t.throws(() => parseHttpResponse('Traceback...'), { message: /printed no result/ });
  t.like(parseHttpResponse('{"status": 200, "msg": "OK (2 bytes)", "url": "http://h/", "headers": {"a": "b"}, "body": "e30="}'), { status: 200, headers: { a: 'b' } });
});
