// OpenID Connect sign-in (issue 38 item 1) with openid-client: the authorization code flow with PKCE (S256), state
// and nonce, the provider found by discovery from its issuer. openid-client checks the ID token (issuer, audience,
// expiry, nonce, the signature with the provider's published keys, RS256 only); the flow is bound to the browser
// that began it (its state in an HttpOnly cookie), and the return address is the console's own (safe paths only).
// No token travels in an address: the callback starts the console session and leaves a one-time handoff in an
// HttpOnly cookie that the sign-in page exchanges for the session token (POST /sso/finish), as a password
// sign-in answers it. Single logout: signing out of such a session sends the browser to the provider's end-session
// page with the client id (not the ID token: no token in an address), and back to /login.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { BizError, ok } from '../../core/envelope.js';
import { SSO_ERRORS, type SsoErrorCode } from '../../../common/sso.js';
import type { SessionStore } from '../../core/sessions.js';
import { oidcBinding, readSettings, settingsBody, type OidcSettings } from './settings.js';
import type { ExternalIdentity } from './accounts.js';

export const MSG_OIDC_DOWN = SSO_ERRORS.down;
export const MSG_OIDC_EXPIRED = SSO_ERRORS.expired;
export const MSG_OIDC_REJECTED = SSO_ERRORS.rejected;
export const MSG_OIDC_CANCELLED = SSO_ERRORS.cancelled;

/** The code the sign-in page shows for a refusal (the sign-in log keeps the message itself). */
function codeOf(message: string): SsoErrorCode {
  const known = (Object.entries(SSO_ERRORS) as Array<[SsoErrorCode, string]>).find(([, text]) => text === message);
  if (known) return known[0];
  return message.startsWith('本系统') ? 'clash' : 'refused';
}
const FLOW_SECONDS = 600;
const HANDOFF_SECONDS = 60;
const FLOW_COOKIE = 'oidc_flow';
const HANDOFF_COOKIE = 'sso_handoff';

const sha = (v: string) => createHash('sha256').update(v).digest('hex');

/** Only same-app paths are followed after sign-in (never //host or http://…). */
export function safeReturn(value: unknown): string {
  const v = typeof value === 'string' ? value : '';
  if (!v.startsWith('/') || v.startsWith('//') || v.startsWith('/\\') || v.startsWith('/login') || /[\r\n]/.test(v)) return '/';
  return v.slice(0, 1000);
}

function cookieOf(req: FastifyRequest, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}

function setCookie(req: FastifyRequest, reply: FastifyReply, name: string, value: string, path: string, maxAge: number) {
  const secure = req.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${name}=${encodeURIComponent(value)}; Path=${path}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`);
}

const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;
const isLoopback = (issuer: string) => {
  try {
    const h = new URL(issuer).hostname;
    return h === 'localhost' || h === '127.0.0.1' || h === '[::1]';
  } catch {
    return false;
  }
};

/** Plain http only for a provider on this machine (a test's or a developer's); anywhere else https. */
const insecureFor = (issuer: string) => (issuer.startsWith('http:') && isLoopback(issuer) ? { execute: [client.allowInsecureRequests] } : {});

export interface OidcDeps {
  /** the console account of a vouched-for identity (made, mapped, refused) */
  externalAccount(identity: ExternalIdentity): Promise<{ id: number; username: string }>;
  sessionFor(req: FastifyRequest, userId: number): Promise<string>;
  logSignIn(req: FastifyRequest, account: string, ok: boolean, msg: string, userId?: number | null): void;
  sessions: SessionStore;
  rateLimit: object;
}

export function oidcRoutes(app: FastifyInstance, deps: OidcDeps) {
  const { db, cache } = app.ctx;
  // the provider's configuration (discovery), held ten minutes per issuer, client and secret
  const configs = new Map<string, { at: number; config: Promise<client.Configuration> }>();
  const configFor = async (o: OidcSettings): Promise<client.Configuration> => {
    const secret = app.secrets.openStored(o.clientSecret, oidcBinding(o)) ?? '';
    const key = sha(`${o.issuer}\n${o.clientId}\n${secret}`);
    const held = configs.get(key);
    if (held && Date.now() - held.at < FLOW_SECONDS * 1000) return held.config;
    const config = client.discovery(new URL(o.issuer), o.clientId, { client_secret: secret, id_token_signed_response_alg: 'RS256' }, client.ClientSecretBasic(secret), {
      timeout: 10,
      ...insecureFor(o.issuer),
    });
    configs.set(key, { at: Date.now(), config });
    config.catch(() => configs.delete(key));
    return config;
  };
  const enabled = async () => {
    const s = await readSettings(db);
    if (!s.oidc.enabled) throw new BizError(SSO_ERRORS.disabled);
    return s.oidc;
  };
  const toLogin = (reply: FastifyReply, why: string) => reply.redirect(`/login?ssoError=${codeOf(why)}`, 302);

  // 使用企业账号登录: off to the provider with a fresh state, nonce and PKCE verifier
  app.get<{ Querystring: { redirect?: string } }>(
    '/oidc/start',
    { config: { public: true, rateLimit: deps.rateLimit }, schema: { querystring: { type: 'object', properties: { redirect: { type: 'string', maxLength: 1000 } } } } },
    async (req, reply) => {
      let o: OidcSettings;
      let config: client.Configuration;
      try {
        o = await enabled();
        config = await configFor(o);
      } catch (e) {
        req.log.warn({ err: e instanceof Error ? e.message : String(e) }, 'oidc: the provider could not be reached');
        return toLogin(reply, e instanceof BizError ? e.message : MSG_OIDC_DOWN);
      }
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = client.randomPKCECodeVerifier();
      await cache.set(`oidc-flow:${sha(state)}`, { nonce, verifier, redirect: safeReturn(req.query.redirect) }, FLOW_SECONDS);
      setCookie(req, reply, FLOW_COOKIE, state, '/api/uams/oidc', FLOW_SECONDS);
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: `${originOf(req)}/api/uams/oidc/callback`,
        scope: o.scopes,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      return reply.redirect(url.href, 302);
    },
  );

  // back from the provider: the checks, the account, the session; the browser returns to the sign-in page
  app.get<{ Querystring: Record<string, string> }>('/oidc/callback', { config: { public: true, rateLimit: deps.rateLimit } }, async (req, reply) => {
    const state = typeof req.query.state === 'string' ? req.query.state : '';
    const cookie = cookieOf(req, FLOW_COOKIE);
    setCookie(req, reply, FLOW_COOKIE, '', '/api/uams/oidc', 0);
    const flowKey = `oidc-flow:${sha(state)}`;
    const flow = state && cookie === state ? await cache.get<{ nonce: string; verifier: string; redirect: string }>(flowKey) : undefined;
    if (!flow) {
      deps.logSignIn(req, '(企业账号)', false, MSG_OIDC_EXPIRED);
      return toLogin(reply, MSG_OIDC_EXPIRED);
    }
    await cache.del(flowKey); // one use
    if (typeof req.query.error === 'string') {
      deps.logSignIn(req, '(企业账号)', false, `${MSG_OIDC_CANCELLED}：${req.query.error.slice(0, 60)}`);
      return toLogin(reply, MSG_OIDC_CANCELLED);
    }
    let account = '(企业账号)';
    try {
      const o = await enabled();
      const config = await configFor(o).catch(() => {
        throw new BizError(MSG_OIDC_DOWN);
      });
      const current = new URL(`${originOf(req)}${req.url}`);
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, current, { pkceCodeVerifier: flow.verifier, expectedState: state, expectedNonce: flow.nonce, idTokenExpected: true });
      } catch (e) {
        // why, for the log: never a token or a code
        req.log.warn({ err: e instanceof Error ? `${e.name}: ${e.message}` : String(e) }, 'oidc: the token answer was refused');
        throw new BizError(e instanceof TypeError || /fetch|ECONN|timeout|network/i.test(String(e)) ? MSG_OIDC_DOWN : MSG_OIDC_REJECTED);
      }
      const claims = tokens.claims()!;
      let groups: unknown = claims[o.claimGroups];
      let info: Record<string, unknown> = claims;
      if (groups === undefined && tokens.access_token) {
        info = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => ({}))), ...claims };
        groups = info[o.claimGroups];
      }
      const text = (name: string) => (typeof info[name] === 'string' && info[name] ? String(info[name]) : null);
      account = (text(o.claimUsername) ?? claims.sub).slice(0, 64);
      const user = await deps.externalAccount({
        provider: 'oidc',
        subject: `${claims.iss} ${claims.sub}`,
        username: account,
        name: (text(o.claimName) ?? account).slice(0, 64),
        email: text(o.claimEmail)?.slice(0, 128) ?? null,
        phone: text(o.claimPhone)?.slice(0, 32) ?? null,
        groups: (Array.isArray(groups) ? groups : typeof groups === 'string' ? [groups] : []).map(String).slice(0, 500),
      });
      const token = await deps.sessionFor(req, user.id);
      // for single logout: this session came through the provider
      await cache.set(`sso-session:${deps.sessions.idOf(token)}`, { provider: 'oidc' }, app.ctx.config.sessionTtl);
      const handoff = randomBytes(24).toString('base64url');
      await cache.set(`sso-handoff:${sha(handoff)}`, { token }, HANDOFF_SECONDS);
      setCookie(req, reply, HANDOFF_COOKIE, handoff, '/api/uams/sso', HANDOFF_SECONDS);
      deps.logSignIn(req, account, true, '登录成功（企业账号）', user.id);
      return reply.redirect(`/login?sso=1&redirect=${encodeURIComponent(flow.redirect)}`, 302);
    } catch (e) {
      const why = e instanceof BizError ? e.message : MSG_OIDC_REJECTED;
      if (!(e instanceof BizError)) req.log.error({ err: e }, 'oidc: sign-in failed');
      deps.logSignIn(req, account, false, why);
      return toLogin(reply, why);
    }
  });

  // the sign-in page's half of the handoff: the session token in the answer's body, once
  app.post('/sso/finish', { config: { public: true, rateLimit: deps.rateLimit } }, async (req, reply) => {
    const handoff = cookieOf(req, HANDOFF_COOKIE);
    setCookie(req, reply, HANDOFF_COOKIE, '', '/api/uams/sso', 0);
    const key = handoff ? `sso-handoff:${sha(handoff)}` : '';
    const held = key ? await cache.get<{ token: string }>(key) : undefined;
    if (!held?.token) throw new BizError(MSG_OIDC_EXPIRED);
    await cache.del(key);
    return ok({ token: held.token });
  });

  // 测试连接 of the OIDC section: discovery from the issuer as typed
  app.post<{ Body: Partial<OidcSettings> }>('/settings/oidc/test', { config: { perm: 'system:auth:edit' }, schema: { body: settingsBody.properties.oidc } }, async (req) => {
    const issuer = String(req.body?.issuer ?? '').trim();
    if (!/^https?:\/\//.test(issuer)) return ok(false, '连接失败：Issuer 须以 https:// 开头');
    try {
      const found = await client.discovery(new URL(issuer), String(req.body?.clientId || 'test'), undefined, client.None(), {
        timeout: 10,
        ...insecureFor(issuer),
      });
      const meta = found.serverMetadata();
      return ok(true, `已读取提供方配置：${meta.issuer}${meta.end_session_endpoint ? '（支持单点退出）' : '（不支持单点退出）'}`);
    } catch (e) {
      const m = e instanceof Error ? e.message : String(e);
      return ok(
        false,
        `连接失败：${/fetch failed|ECONNREFUSED/i.test(m) ? '无法连接到该地址' : /timeout|aborted/i.test(m) ? '等待超时' : issuer.startsWith('http:') ? '请使用 https 地址' : m.slice(0, 160)}`,
      );
    }
  });

  /** Where the browser goes after signing out of a session made through the provider (its end-session page), or null. */
  return {
    async endSessionUrl(req: FastifyRequest, token: string): Promise<string | null> {
      const key = `sso-session:${deps.sessions.idOf(token)}`;
      const held = await cache.get<{ provider: string }>(key);
      if (!held?.provider) return null;
      await cache.del(key);
      try {
        const s = await readSettings(db);
        const config = await configFor(s.oidc);
        if (!config.serverMetadata().end_session_endpoint) return null;
        return client.buildEndSessionUrl(config, { client_id: s.oidc.clientId, post_logout_redirect_uri: `${originOf(req)}/login` }).href;
      } catch {
        return null; // the provider is away: signed out here at least
      }
    },
  };
}
