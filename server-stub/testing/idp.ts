// A real OpenID provider (oidc-provider 9) for tests of "sign in with the company's identity": plain http on
// loopback, one confidential client, our own login page instead of devInteractions, consent given by itself and a
// logout that needs no click. Test-only code: tests start it in-process and speak to it over real HTTP.
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error -- oidc-provider 9 ships no type declarations; the few parts used here are typed below
import OidcProvider from 'oidc-provider';

export interface IdpUser {
  sub: string;
  username: string;
  password: string;
  name: string;
  email?: string;
  phone?: string;
  groups: string[];
}

export interface TestIdp {
  /** e.g. http://127.0.0.1:<port> */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** by username; tests mutate groups (e.g. remove from 'bi-designers') and the next sign-in must see it */
  users: Map<string, IdpUser>;
  /** how many end_session (RP-initiated logout) calls the provider completed */
  logouts(): number;
  close(): Promise<void>;
}

// --- the slice of oidc-provider's API this file uses

interface Interaction {
  uid: string;
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> } };
  params: { client_id: string } & Record<string, unknown>;
  session?: { accountId: string };
  grantId?: string;
}
interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}
interface Provider {
  callback(): http.RequestListener;
  interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<Interaction>;
  interactionFinished(req: http.IncomingMessage, res: http.ServerResponse, result: Record<string, unknown>, opts: { mergeWithLastSubmission: boolean }): Promise<void>;
  Grant: { new (init: { accountId: string; clientId: string }): Grant; find(id: string): Promise<Grant | undefined> };
  on(event: string, listener: (...args: any[]) => void): void;
}
/** The koa context as the page hooks (logoutSource, renderError, ...) use it. */
interface PageContext {
  type: string;
  body: unknown;
}
type Payload = Record<string, unknown> & { uid?: string; userCode?: string; grantId?: string };

const Provider = OidcProvider as new (issuer: string, configuration: Record<string, unknown>) => Provider;

/** The claims each scope releases (the `groups` scope is ours: the directory groups, an array of names). */
const CLAIMS = {
  openid: ['sub'],
  profile: ['name', 'preferred_username'],
  email: ['email'],
  phone: ['phone_number'],
  groups: ['groups'],
};

export async function startIdp(opts: { redirectUris: string[]; postLogoutRedirectUris: string[]; users: IdpUser[]; port?: number }): Promise<TestIdp> {
  const users = new Map(opts.users.map((u) => [u.username, u]));
  const clientId = 'data-service-console';
  const clientSecret = randomBytes(24).toString('base64url');
  let logouts = 0;

  // Listen first: the issuer (and so every URL in discovery and every token's `iss`) must name the real port.
  let handle: http.RequestListener = (_req, res) => res.writeHead(503).end();
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    // Our own Map per IdP: oidc-provider's built-in memory adapter is one store for the whole process and warns on
    // every start; this one goes away with close().
    adapter: memoryAdapter(),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        // http redirect URIs on loopback: a `web` client (the default application_type) may register http:// URIs as
        // long as it does not use the implicit flow (client_schema.js only forces https / forbids localhost for
        // implicit). `native` would accept them too but matches loopback URIs with any port, which is not what a
        // server-side console is, so `web` it is: the URIs must match exactly, port included.
        application_type: 'web',
        redirect_uris: opts.redirectUris,
        post_logout_redirect_uris: opts.postLogoutRedirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // Confidential clients need not use PKCE by default (oidc-provider only forces it for public clients and FAPI);
    // here every authorization request must carry an S256 code_challenge (the only method oidc-provider 9 knows).
    pkce: { required: () => true },
    responseTypes: ['code'],
    scopes: ['openid', 'profile', 'email', 'phone', 'groups'],
    claims: CLAIMS,
    // By default a code flow's ID token carries only `sub` and the claims asked for with the `claims` parameter, the
    // scopes' claims going to userinfo only; release them in the ID token too, so `groups` comes with the sign-in.
    conformIdTokenClaims: false,
    // called for each ID token and userinfo answer: reading the map here is what lets a test change a user's groups
    // and see it at the next sign-in
    findAccount: (_ctx: unknown, sub: string) => {
      const user = [...users.values()].find((u) => u.sub === sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, preferred_username: user.username, name: user.name, email: user.email, phone_number: user.phone, groups: [...user.groups] }),
      };
    },
    jwks: { keys: [signingKey()] },
    // seconds; set so oidc-provider does not print a notice for each default it falls back to
    ttl: { AuthorizationCode: 60, AccessToken: 3600, IdToken: 3600, Interaction: 600, Session: 8 * 3600, Grant: 8 * 3600 },
    cookies: {
      keys: [randomBytes(32).toString('hex')],
      // Cookies ignore ports: the console on 127.0.0.1:<other port> shares the cookie jar with this IdP, so the
      // provider's default names (_session, _interaction, ...) are prefixed to keep clear of the console's cookies.
      // No `secure` flag is set (oidc-provider only adds it when the request itself came over https).
      names: { session: 'idp_session', interaction: 'idp_interaction', resume: 'idp_interaction_resume' },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        // The confirmation page submits itself (with logout=yes: end the whole IdP session, not only this client's);
        // a client without a browser finds the same form and posts it.
        logoutSource: (ctx: PageContext, form: string) => {
          const autoForm = form.replace('</form>', '<input type="hidden" name="logout" value="yes"/><noscript><button type="submit">退出</button></noscript></form>');
          page(ctx, '正在退出', `${autoForm}<script>document.getElementById('op.logoutForm').submit()</script>`);
        },
        postLogoutSuccessSource: (ctx: PageContext) => page(ctx, '已退出', '<p>已退出测试身份提供方。</p>'),
      },
    },
    // the default error page imports a web font from the internet: keep the pages self-contained for offline browsers
    renderError: (ctx: PageContext, out: Record<string, string>) => page(ctx, '出错了', `<pre>${escapeHtml(JSON.stringify(out, null, 2))}</pre>`),
  });
  provider.on('end_session.success', () => logouts++);
  // a provider bug would otherwise only show as a bare 500 in the test
  provider.on('server_error', (_ctx: unknown, err: Error) => console.error('[test idp] server_error', err));

  const oidc = provider.callback();
  handle = (req, res) => {
    if (!/^\/interaction\/[\w-]+$/.test(new URL(req.url ?? '/', issuer).pathname)) return oidc(req, res);
    interaction(req, res).catch((err: Error) => {
      // most often SessionNotFound: the interaction cookie is missing or the interaction already finished
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end(`interaction failed: ${err.name}: ${err.message}`);
    });
  };

  /** GET shows the login form (or grants consent by itself), POST checks the password. */
  async function interaction(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'consent') {
      // consent is never asked: grant what was requested and go straight back to the client
      await provider.interactionFinished(req, res, { consent: { grantId: await grantConsent(details) } }, { mergeWithLastSubmission: true });
      return;
    }
    if (details.prompt.name !== 'login') throw new Error(`unexpected prompt ${details.prompt.name}`);
    if (req.method !== 'POST') return loginForm(res, details.uid);
    const form = new URLSearchParams(await readBody(req));
    const username = form.get('username') ?? '';
    const user = users.get(username);
    if (!user || user.password !== form.get('password')) return loginForm(res, details.uid, username, '用户名或密码错误');
    await provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
  }

  async function grantConsent(details: Interaction): Promise<string> {
    const missing = details.prompt.details;
    const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
    const grant = existing ?? new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id });
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
    return grant.save();
  }

  return {
    issuer,
    clientId,
    clientSecret,
    users,
    logouts: () => logouts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // keep-alive sockets (the console's fetch, a browser) would hold close() open and vitest with it
        server.closeAllConnections();
      }),
  };
}

/** A fresh RS256 key for this IdP's ID tokens (published at jwks_uri). */
function signingKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' };
}

/**
 * oidc-provider's storage contract, on a Map of this IdP only. Expiry needs no timers: the provider checks each
 * payload's `exp` when it finds it.
 */
function memoryAdapter(): (model: string) => Record<string, (...args: any[]) => Promise<unknown>> {
  const store = new Map<string, Payload>();
  return (model) => {
    const key = (id: string) => `${model}:${id}`;
    const ofModel = () => [...store].filter(([k]) => k.startsWith(`${model}:`));
    return {
      upsert: async (id: string, payload: Payload) => void store.set(key(id), payload),
      find: async (id: string) => store.get(key(id)),
      findByUid: async (uid: string) => ofModel().find(([, p]) => p.uid === uid)?.[1],
      findByUserCode: async (userCode: string) => ofModel().find(([, p]) => p.userCode === userCode)?.[1],
      consume: async (id: string) => {
        const payload = store.get(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      destroy: async (id: string) => void store.delete(key(id)),
      revokeByGrantId: async (grantId: string) => {
        for (const [k, p] of ofModel()) if (p.grantId === grantId) store.delete(k);
      },
    };
  };
}

function loginForm(res: http.ServerResponse, uid: string, username = '', error?: string): void {
  const body = `${error ? `<p class="error">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}">
  <label>用户名 <input name="username" autocomplete="username" value="${escapeHtml(username)}" autofocus></label>
  <label>密码 <input name="password" type="password" autocomplete="current-password"></label>
  <button type="submit">登录</button>
</form>`;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html('测试身份提供方', body));
}

/** A provider page (koa context): our small HTML instead of oidc-provider's. */
function page(ctx: PageContext, title: string, body: string): void {
  ctx.type = 'html';
  ctx.body = html(title, body);
}

function html(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
