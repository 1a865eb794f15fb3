// Route table sweeps: every route Fastify registered, read from Fastify itself (a new route is covered
// without editing this file). Without a token, with a dead token and under every other spelling of its
// path, each non-public route answers 401; as each demo role it is refused exactly when the role's
// permissions in schemas/menus/roles.json do not grant the route's declared permission.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermissionDenied, type RouteEntry } from '../core/auth.js';
import { hasPermission } from '../core/permissions.js';
import { startTestServer, type TestServer } from '../testing/server.js';
import { concrete, rawRequest, routesOf, spellings } from './sweep.js';

const roles: Array<{ roleKey: string; permissions: string[]; demoUser?: { username: string } }> = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../schemas/menus/roles.json'), 'utf8'),
).roles;

let s: TestServer;
const denials = new Map<string, boolean>();
const key = (method: string, url: string | undefined, token: string | undefined) => `${method} ${url} ${token}`;

beforeAll(async () => {
  s = await startTestServer({
    setup: (app) => {
      // observe the guard's own decision (a handler's request-dependent refusal is not the guard's)
      app.addHook('onError', async (req, _reply, err) => {
        if (err instanceof PermissionDenied) denials.set(key(req.method, req.routeOptions.url, req.token), true);
      });
    },
  });
});
afterAll(() => s?.close());

const guarded = () => routesOf(s.app.routeTable, (r) => !r.public);
const bodyFor = (r: RouteEntry) => (r.method === 'POST' || r.method === 'PUT' || r.method === 'DELETE' ? '{}' : undefined);

describe('route table', () => {
  it('is read from Fastify and holds the protected routes', () => {
    const all = s.app.routeTable;
    expect(all.length).toBeGreaterThan(30);
    expect(all.some((r) => r.url === '/api/uams/user/search' && !r.public)).toBe(true);
    expect(all.filter((r) => r.public).map((r) => r.url)).toEqual(expect.arrayContaining(['/api/uams/login', '/api/uams/publicKey']));
  });

  it('has exactly the known public API routes: a new one is a decision, not an accident', () => {
    const open = routesOf(s.app.routeTable, (r) => r.public && /^\/(api|open)\//.test(r.url) && r.method !== 'HEAD').map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual(
      [
        'GET /api/uams/publicKey',
        'POST /api/uams/login',
        'POST /api/uams/logout',
        // what the sign-in page offers (issue 38: nothing secret), and the second step of a password sign-in: the
        // ticket a proven password answered decides (five minutes, each code counted like a password)
        'GET /api/uams/options',
        'POST /api/uams/login/totp',
        'POST /api/uams/login/totp/setup',
        // OpenID Connect: off to the provider, back from it (state bound to the browser's cookie, PKCE, nonce), and
        // the sign-in page's one-time handoff of the session the callback made (an HttpOnly cookie, never an address)
        'GET /api/uams/oidc/start',
        'GET /api/uams/oidc/callback',
        'POST /api/uams/sso/finish',
        'POST /open/api/:apiName',
        // any other method on a published API answers 405 请使用 POST 调用 (nothing runs, nothing is read)
        'GET /open/api/:apiName',
        'PUT /open/api/:apiName',
        'DELETE /open/api/:apiName',
        'PATCH /open/api/:apiName',
        'GET /open/api-docs',
        // filling in a form (issue 11): the form's own fill_access decides, inside the route
        'GET /api/jimu/form/fill/get',
        'POST /api/jimu/form/fill/submit',
        'POST /api/jimu/form/fill/upload',
      ].sort(),
    );
  });

  it('refuses every non-public route without a session, under every spelling of its path', async () => {
    const wrong: string[] = [];
    for (const r of guarded()) {
      for (const p of spellings(concrete(r.url))) {
        for (const token of [undefined, 'dead-token-0123456789']) {
          const a = await rawRequest(s.url, r.method, p, { body: bodyFor(r), token }).catch((e) => ({ http: -1, body: null, text: String(e) }));
          // a request line that is not a path (\\api\\…) is refused by the HTTP parser before routing
          const unparsable = !p.startsWith('/') && (a.http === 400 || a.http === -1);
          const refused = unparsable || (a.http === 401 && (r.method === 'HEAD' || a.body?.status === 2));
          if (!refused) wrong.push(`${r.method} ${p}${token ? ' (dead token)' : ''} → ${a.http} ${a.text.slice(0, 80)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps unknown /api paths at 401 without a session, however spelled, and 404 with one', async () => {
    for (const p of spellings('/api/no/such/route').filter((x) => x.startsWith('/'))) {
      const a = await rawRequest(s.url, 'POST', p, { body: '{}' });
      expect(a.http, p).toBe(401);
    }
    const a = await rawRequest(s.url, 'POST', '/api/no/such/route', { body: '{}', token: s.token });
    expect(a.http).toBe(404);
    expect(a.body.status).toBe(1);
  });
});

describe('role sweep', () => {
  for (const role of roles.filter((r) => r.demoUser)) {
    it(`as ${role.roleKey}: each route is refused exactly when the role lacks its permission`, async () => {
      const token = await s.loginAs(role.demoUser!.username);
      const wrong: string[] = [];
      for (const r of guarded()) {
        // logout-like routes would end the session under test
        if (/logout/.test(r.url)) continue;
        const allowed = !r.perm || hasPermission(role.permissions, r.perm);
        const a = await rawRequest(s.url, r.method, concrete(r.url), { body: bodyFor(r), token });
        const denied = denials.get(key(r.method, r.url, token)) === true;
        if (denied === allowed) wrong.push(`${r.method} ${r.url} perm=${r.perm} allowed=${allowed} → ${a.http} ${a.text.slice(0, 60)}`);
        if (a.http === 401 || a.http >= 500) wrong.push(`${r.method} ${r.url} → ${a.http} ${a.text.slice(0, 80)}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
