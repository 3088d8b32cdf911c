// The HTTP request get_url and uri make from the host, as Ansible's do (their fetch_url runs on the
// managed host): a small Python 3 program, sent with its parameters as JSON on stdin over the host's
// one connection, using only the standard library (urllib). It does the one request and reports
// status, Ansible's message, final URL and lower-cased headers; the body goes to a private temp file
// (get_url, with its digests) or comes back base64 (uri). What to do with it is decided in TypeScript.
import { ProbeParseError } from '../../errors.js';

const PROGRAM = String.raw`
import base64, hashlib, http.cookiejar, json, os, ssl, sys, tempfile, urllib.error, urllib.request
p = json.load(sys.stdin)
jar = http.cookiejar.CookieJar()
out = {"status": -1, "url": p["url"]}
class Redirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, hdrs, newurl):
        mode = p["follow_redirects"]
        if mode in ("none", "no") or (mode == "safe" and req.get_method() not in ("GET", "HEAD")):
            raise urllib.error.HTTPError(req.full_url, code, msg, hdrs, fp)
        return urllib.request.HTTPRedirectHandler.redirect_request(self, req, fp, code, msg, hdrs, newurl)
handlers = [Redirects(), urllib.request.HTTPCookieProcessor(jar)]
if not p["use_proxy"]:
    handlers.append(urllib.request.ProxyHandler({}))
if not p["validate_certs"]:
    handlers.append(urllib.request.HTTPSHandler(context=ssl._create_unverified_context()))
headers = dict(p["headers"])
if p.get("username") is not None:
    if p["force_basic_auth"]:
        token = base64.b64encode(("%s:%s" % (p["username"], p.get("password") or "")).encode()).decode()
        headers["Authorization"] = "Basic " + token
    else:
        mgr = urllib.request.HTTPPasswordMgrWithDefaultRealm()
        mgr.add_password(None, p["url"], p["username"], p.get("password") or "")
        handlers.append(urllib.request.HTTPBasicAuthHandler(mgr))
data = base64.b64decode(p["body"]) if p.get("body") is not None else None
req = urllib.request.Request(p["url"], data=data, method=p["method"])
if p.get("http_agent"):
    req.add_header("User-agent", p["http_agent"])
if p.get("force"):
    req.add_header("cache-control", "no-cache")
elif p.get("if_modified_since") is not None:
    import email.utils
    req.add_header("If-Modified-Since", email.utils.formatdate(p["if_modified_since"], usegmt=True))
for k, v in headers.items():
    req.add_header(k, v)
def keep(r):
    h = {}
    for k, v in r.headers.items():
        k = k.lower()
        h[k] = h[k] + ", " + v if k in h else v
    out["headers"] = h
    out["content_type"] = [r.headers.get_content_type(), r.headers.get_param("charset")]
def save(r):
    if p["save"] == "memory":
        out["body"] = base64.b64encode(r.read()).decode()
        return
    fd, name = tempfile.mkstemp(dir=p.get("tmp_dir"), prefix=".hostwire-get-")
    out["tmp"] = name
    sums = dict((a, hashlib.new(a)) for a in p["digests"])
    with os.fdopen(fd, "wb") as f:
        while True:
            chunk = r.read(65536)
            if not chunk:
                break
            f.write(chunk)
            for s in sums.values():
                s.update(chunk)
    out["digests"] = dict((a, s.hexdigest()) for a, s in sums.items())
try:
    r = urllib.request.build_opener(*handlers).open(req, timeout=p["timeout"])
    keep(r)
    out["cookies"] = [[c.name, c.value] for c in jar]
    out.update(status=r.status, url=r.geturl(), msg="OK (%s bytes)" % r.headers.get("Content-Length", "unknown"))
    save(r)
except urllib.error.HTTPError as e:
    keep(e)
    out.update(status=e.code, msg=str(e))
    try:
        out["error_body"] = base64.b64encode(e.read()).decode()
    except Exception:
        out["error_body"] = ""
except urllib.error.URLError as e:
    out.update(status=int(getattr(e, "code", -1)), msg="Request failed: %s" % e)
except OSError as e:
    out.update(msg="Connection failure: %s" % e)
except Exception as e:
    out.update(msg="An unknown error occurred: %s" % e)
sys.stdout.write(json.dumps(out))
`;

export interface HttpRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The request body's bytes. */
  body?: Buffer;
  timeout: number;
  validate_certs: boolean;
  use_proxy: boolean;
  follow_redirects: string;
  username?: string;
  password?: string;
  force_basic_auth: boolean;
  http_agent?: string;
  /** get_url's force: cache-control no-cache instead of If-Modified-Since. */
  force?: boolean;
  /** Epoch seconds of the copy on the host: If-Modified-Since. */
  if_modified_since?: number;
  /** 'file': into a private temp file in tmp_dir (digests computed on the way); 'memory': the body back. */
  save: 'file' | 'memory';
  tmp_dir?: string;
  digests?: string[];
}

export interface HttpResponse {
  /** HTTP status, or -1 when no response came (fetch_url's convention). */
  status: number;
  msg: string;
  url: string;
  headers: Record<string, string>;
  tmp?: string;
  digests?: Record<string, string>;
  body?: Buffer;
  errorBody?: Buffer;
  /** The response's content type and charset parameter (email.message's get_content_type/get_param). */
  contentType?: [string, string | null];
  /** Cookies the jar holds after a response that was not an error, in its order. */
  cookies?: [string, string][];
}

/** The exec: the program as a python3 -c argument (quoted once), the parameters on stdin. */
export function httpCommand(): string {
  return `python3 -c '${PROGRAM.replace(/'/g, `'\\''`)}'`;
}

export function httpStdin(r: HttpRequest): string {
  const { body, ...rest } = r;
  return JSON.stringify({ ...rest, digests: r.digests ?? [], body: body === undefined ? null : body.toString('base64') });
}

export function parseHttpResponse(stdout: string): HttpResponse {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    throw new ProbeParseError('the host\'s HTTP request printed no result (is python3 on the host?)', stdout);
  }
  const b64 = (v: unknown) => (typeof v === 'string' ? Buffer.from(v, 'base64') : undefined);
  return {
    status: Number(raw.status), msg: String(raw.msg ?? ''), url: String(raw.url ?? ''),
    headers: (raw.headers ?? {}) as Record<string, string>,
    tmp: typeof raw.tmp === 'string' ? raw.tmp : undefined,
    digests: raw.digests as Record<string, string> | undefined,
    body: b64(raw.body), errorBody: b64(raw.error_body),
    contentType: raw.content_type as [string, string | null] | undefined,
    cookies: raw.cookies as [string, string][] | undefined,
  };
}
