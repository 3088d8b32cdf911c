// uri: its arguments, the body as uri.py encodes it (expectations from Python 3.11's json.dumps and
// urlencode), and the result built from a response as uri.py builds it.
import test from 'ava';
import { getModule } from '../../src/modules/all.js';
import { formUrlencoded, prepareBody, pyJsonDumps } from '../../src/modules/uri/body.js';
import { absoluteLocation, uriResult } from '../../src/modules/uri/response.js';

const uri = getModule('uri')!;

test('uri arguments: defaults, aliases, method upper-cased, status_code as ints, refusals', (t) => {
  t.like(uri.args.parse({ url: 'http://h/', user: 'u', password: 'p', method: 'post', status_code: '200,201' }), {
    url_username: 'u', url_password: 'p', method: 'POST', status_code: [200, 201], body_format: 'raw', follow_redirects: 'safe', timeout: 30, return_content: false,
  });
  t.regex(JSON.stringify(uri.args.safeParse({ url: 'http://h/', method: 'GET X' }).error?.issues), /needs to be a single word in uppercase/);
  t.false(uri.args.safeParse({ url: 'http://h/', body_format: 'form-multipart' }).success, 'not built: refused');
  t.false(uri.args.safeParse({ url: 'http://h/', dest: '/tmp/x' }).success, 'not built: refused');
});

test("uri bodies as Python encodes them: json.dumps's separators and escapes, urlencode's quote_plus", (t) => {
  t.is(pyJsonDumps({ a: 1, b: ['x', 'é'], c: null, d: true, e: { f: 1.5 } }), '{"a": 1, "b": ["x", "\\u00e9"], "c": null, "d": true, "e": {"f": 1.5}}');
  t.is(formUrlencoded([['a', 'x y'], ['b', "it's*(!)"], ['c', ['1', '2']], ['d', true], ['u', 'é/~']]), 'a=x+y&b=it%27s%2A%28%21%29&c=1&c=2&d=True&u=%C3%A9%2F~');
  t.deepEqual(prepareBody({ a: 1 }, 'json', {}), { body: Buffer.from('{"a": 1}'), headers: { 'Content-Type': 'application/json' } });
  t.deepEqual(prepareBody('x=1', 'form-urlencoded', { 'content-type': 'text/plain' }).headers, { 'content-type': 'text/plain' }, 'a given content type stays');
  t.deepEqual(prepareBody(undefined, 'raw', {}), { headers: {} });
});

test("uri's result: headers as keys, json parsed, Location absolute, the status_code failure", (t) => {
  const resp = {
    status: 200, msg: 'OK (7 bytes)', url: 'http://h/a/b', headers: { 'content-type': 'application/vnd.x+json', location: 'c' }, body: Buffer.from('{"k":1}'),
    contentType: ['application/vnd.x+json', null] as [string, null], cookies: [['s', '1']] as [string, string][],
  };
  const ok = uriResult('http://h/a/b', resp, { statusCodes: [200], returnContent: false });
  t.like(ok, { changed: false, status: 200, content_type: 'application/vnd.x+json', json: { k: 1 }, cookies: { s: '1' }, cookies_string: 's=1', redirected: false, location: 'http://h/a/c', elapsed: 0 });
  t.false('content' in ok);
  const bad = uriResult('http://h/a/b', resp, { statusCodes: [201, 204], returnContent: true });
  t.like(bad, { failed: true, msg: 'Status code was 200 and not [201, 204]: OK (7 bytes)', content: '{"k":1}' });
  t.is(absoluteLocation('http://h/a/b', '/z'), 'http://h/z');
});
