// Sign-in, session, logout and the user list (spec part 1 §7 "Session"; DESIGN §4).
//
// Sign-in guards:
//  - per account: at most MAX_FAILED_LOGINS password checks, each reserved atomically *before* the check
//    (core/throttle.ts; in the store, or in Redis when REDIS_URL is set); the last one locks the account
//    for LOCK_SECONDS. A submitted name that matches no account is counted the same way, and checked
//    against a hash no password matches, so an unknown name answers exactly like a wrong password
//    (message, remaining tries, lock, time). Deleted / not-yet-effective accounts say so only after the
//    right password.
//  - per client address: the `limits` platform service (core/limits.ts) on sign-in and the public key, keyed on the TCP peer.
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { BizError, LOGIN_URL, ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { hashPassword, unmatchableHash, verifyPassword, type LoginKeys } from '../../core/passwords.js';
import { passwordFault } from '../../../common/password-policy.js';
import { now } from '../../store/columns.js';
import type { SessionStore } from '../../core/sessions.js';
import { deploymentTag, redisThrottle, storeThrottle } from '../../core/throttle.js';
import { refusal, userFields } from '../../core/users.js';
import { usersInScope } from '../../core/org.js';
import { MSG_TOO_MANY_REQUESTS, clientKey } from '../../core/limits.js';
import { MSG_OUT_OF_SCOPE } from '../../core/org.js';
import { sameTarget } from '../../core/secrets.js';
import { listQuerySchema, matchesAny, pageRows } from '../../core/list.js';
import { seedRolesAndUsers } from './seed.js';
import { checkSettings, ldapBinding, maskedSettings, mergeForSave, readSettings, settingsBody, writeSettings, type AuthSettings, type LdapSettings } from './settings.js';
import { ldapSignIn, ldapTest, LdapFault, MSG_LDAP_DOWN, type DirectoryIdentity } from './ldap.js';
import { identityMaps, MSG_NO_ROLE, MSG_ROLES_CHANGED, provision, type ExternalIdentity } from './accounts.js';
import { listPageRoutes } from '../../core/tables.js';
import { hasPermission } from '../../core/permissions.js';
import { oidcRoutes } from './oidc.js';
import { matchStep, MSG_BAD_CODE, MSG_TICKET_GONE, newEnrolment, TICKET_SECONDS, totpService } from './totp.js';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_SECONDS = 60;
export const MSG_BAD_CREDENTIALS = '账号或密码错误';
export const MSG_ENTER_ACCOUNT = '请输入账号';
export const MSG_USE_SSO = '请使用企业账号登录';
export const MSG_TOTP_PROVIDER = '企业账号（OIDC）的双因素认证由企业身份提供方负责';
const ADMIN_ROLE = 'sys_admin';
export const MSG_ENTER_PASSWORD = '请输入密码';
export { MSG_TOO_MANY_REQUESTS };
/** Sign-in calls per client address per minute, unless LOGINS_PER_MINUTE says otherwise (config.ts). */
export const LOGINS_PER_ADDRESS = 20;
/** Public-key calls per client address per minute: three per sign-in allowed (the login page fetches it once per attempt). */
export const PUBLIC_KEYS_PER_ADDRESS = 3 * LOGINS_PER_ADDRESS;
const ADDRESS_WINDOW_MS = 60_000;

export const msgTriesLeft = (left: number) => `${MSG_BAD_CREDENTIALS}，还可尝试 ${left} 次`;
export const MSG_NOW_LOCKED = `密码连续输错 ${MAX_FAILED_LOGINS} 次，账号已锁定 1 分钟`;
export const MSG_CODES_LOCKED = `动态验证码连续输错 ${MAX_FAILED_LOGINS} 次，账号已锁定 1 分钟`;
export const msgCodesLocked = (seconds: number) => `动态验证码错误次数过多，请 ${seconds} 秒后再试`;
/** The count of second-step codes of an account (apart from its passwords'). */
const codeKey = (userId: number) => `t:${userId}`;
export const msgLocked = (seconds: number) => `密码错误次数过多，账号已锁定，请 ${seconds} 秒后再试`;

const ticketBody = { type: 'object', required: ['ticket'], properties: { ticket: { type: 'string', maxLength: 64, title: '验证票据' } } } as const;
const codeProp = { type: 'string', maxLength: 32, title: '动态验证码' } as const;
const codeBody = { type: 'object', required: ['ticket', 'code'], properties: { ticket: ticketBody.properties.ticket, code: codeProp } } as const;
const ownCodeBody = { type: 'object', required: ['code'], properties: { code: codeProp } } as const;

// account and password are checked in the handler, for the spec's own messages (请输入账号 / 请输入密码)
const loginBody = {
  type: 'object',
  properties: {
    loginType: { type: 'string', maxLength: 32, title: '登录方式' },
    area: { type: 'string', maxLength: 8, title: '区号' },
    mobilePhone: { type: 'string', maxLength: 64, title: '账号' },
    password: { type: 'string', maxLength: 1024, title: '密码' },
    smsCodeKey: { type: 'string', maxLength: 128 },
    smsCode: { type: 'string', maxLength: 16 },
  },
} as const;

export function uamsPlugin(keys: LoginKeys, sessions: SessionStore): FastifyPluginAsync {
  return async (app) => {
    const { db, config } = app.ctx;
    // Counters in a shared Redis carry the deployment's tag: its instances share them, other deployments
    // (and test servers) on the same Redis never meet.
    const tag = deploymentTag(config);
    // Registered in this module's scope with global: false, so only routes with config.rateLimit are limited.
    await app.limits.register(app, '');
    const { redis } = app.limits;
    const rule = { max: MAX_FAILED_LOGINS, windowMs: LOCK_SECONDS * 1000 };
    const throttle = redis ? redisThrottle(redis, `login-attempt:${tag}:`, rule) : storeThrottle(db, rule);
    const noAccountHash = unmatchableHash();

    app.get('/publicKey', { config: { public: true, rateLimit: { max: 3 * config.loginsPerMinute, timeWindow: ADDRESS_WINDOW_MS } } }, async () => ok(keys.publicPem));

    const loginConfig = { public: true, rateLimit: { max: config.loginsPerMinute, timeWindow: ADDRESS_WINDOW_MS } };
    const findAccount = (account: string) =>
      db
        .selectFrom('sys_user')
        .selectAll()
        .where((eb) => eb.or([eb('username', '=', account), eb('phone_number', '=', account)]))
        .executeTakeFirst();
    const totp = totpService(db, app.secrets, app.ctx.cache);
    const sessionFor = (req: FastifyRequest, userId: number) => sessions.create(userId, app.ctx.config.sessionTtl, { address: clientKey(req), userAgent: req.headers['user-agent'] ?? null });
    /** Writes one sign-in to the sign-in log (登录日志), after the answer is sent. */
    const logSignIn = (req: FastifyRequest, account: string, ok: boolean, msg: string, userId: number | null = null) =>
      app.audit.signIn({ username: account, userId, address: clientKey(req), userAgent: req.headers['user-agent'] ?? null, ok, msg });

    /**
     * The account of an identity the provider vouched for: made or updated with the mapping applied (a person who
     * lost a role is signed out everywhere), refused when it has no role or the console refuses it.
     */
    const externalAccount = async (identity: ExternalIdentity) => {
      const { user, lostRoles, roleCount } = await provision(db, identity);
      if (lostRoles) await app.ctx.sessions.revokeUser(user.id, MSG_ROLES_CHANGED);
      if (!roleCount) throw new BizError(MSG_NO_ROLE);
      const why = refusal(user);
      if (why) throw new BizError(why);
      return user;
    };
    // LDAP: each try counted against the name typed (the directory's own lockout still applies there)
    const ldapLogin = async (req: FastifyRequest, account: string, password: string) => {
      const s = await readSettings(db);
      if (!s.ldap.enabled) throw new BizError('未启用 LDAP 登录');
      const key = `l:${account.toLowerCase()}`;
      const slot = await throttle.reserve(key);
      if (!slot.granted) throw new BizError(msgLocked(Math.max(1, Math.ceil(slot.retryAfterMs / 1000))));
      let identity: DirectoryIdentity;
      try {
        identity = await ldapSignIn(s.ldap, app.secrets.openStored(s.ldap.bindPassword, ldapBinding(s.ldap)), account, password);
      } catch (e) {
        if (!(e instanceof LdapFault)) throw e;
        if (e.message === MSG_BAD_CREDENTIALS) throw new BizError(slot.attempt < MAX_FAILED_LOGINS ? msgTriesLeft(MAX_FAILED_LOGINS - slot.attempt) : MSG_NOW_LOCKED);
        if (!e.forUser) req.log.warn({ reason: e.message }, 'ldap sign-in: the service account was refused');
        throw new BizError(e.forUser ? e.message : MSG_LDAP_DOWN);
      }
      await throttle.reset(key);
      return externalAccount({ provider: 'ldap', ...identity });
    };

    /**
     * After a proven password: the ticket of the second step when the account has TOTP, or its role must have it
     * (the setup it still owes); null when the session may start now.
     */
    const secondStep = async (userId: number, account: string) => {
      const roles = (await app.ctx.users.load(userId))?.roles ?? [];
      const stage = (await totp.enrolled(userId)) ? 'verify' : (await totp.required(roles)) ? 'enroll' : null;
      return stage ? ok({ mfa: stage, ticket: await totp.tickets.issue({ userId, stage, account }) }) : null;
    };

    app.post<{ Body: { loginType?: string; mobilePhone?: string; password?: string } }>('/login', { config: loginConfig, schema: { body: loginBody } }, async (req) => {
      const account = (req.body.mobilePhone ?? '').trim();
      if (!account) throw new BizError(MSG_ENTER_ACCOUNT);
      if (!req.body.password) throw new BizError(MSG_ENTER_PASSWORD);
      let user: Awaited<ReturnType<typeof findAccount>>;
      let token: string;
      try {
        let plain: string;
        try {
          plain = keys.decrypt(req.body.password!);
        } catch {
          throw new BizError('密码须经公钥加密后传输，请刷新页面重试');
        }
        if (req.body.loginType === 'ldap') {
          const signed = await ldapLogin(req, account, plain);
          user = signed;
          // a directory account proves a password here too: the same second step as a local one
          const second = await secondStep(signed.id, account);
          if (second) return second;
          token = await sessionFor(req, signed.id);
          logSignIn(req, account, true, '登录成功（LDAP）', signed.id);
          return ok({ token });
        }
        user = await findAccount(account);
        // A known account is counted once whichever of its names is typed; any other name on its own.
        const key = user ? `u:${user.id}` : `n:${account}`;
        const slot = await throttle.reserve(key);
        if (!slot.granted) throw new BizError(msgLocked(Math.max(1, Math.ceil(slot.retryAfterMs / 1000))));
        const proven = await verifyPassword(plain, user?.password_hash ?? noAccountHash);
        if (!user || !proven) {
          if (slot.attempt < MAX_FAILED_LOGINS) throw new BizError(msgTriesLeft(MAX_FAILED_LOGINS - slot.attempt));
          req.log.warn({ user: user?.username ?? null }, 'sign-in locked after failed passwords');
          throw new BizError(MSG_NOW_LOCKED);
        }
        await throttle.reset(key);
        // only now, with the password proven, may the answer say anything about the account itself
        const why = refusal(user);
        if (why) throw new BizError(why);
        const roles = (await app.ctx.users.load(user.id))?.roles ?? [];
        // 认证设置 may keep the password form to administrators (everyone else signs in with the company's identity)
        if ((await readSettings(db)).passwordForm === 'admins' && !roles.includes(ADMIN_ROLE)) throw new BizError(MSG_USE_SSO);
        const second = await secondStep(user.id, account);
        if (second) return second;
      } catch (err) {
        logSignIn(req, account, false, err instanceof BizError ? err.message : '登录失败', user?.id ?? null);
        throw err;
      }
      token = await sessionFor(req, user!.id);
      req.log.info({ user: user!.username }, 'login');
      logSignIn(req, account, true, '登录成功', user!.id);
      return ok({ token });
    });

    // The second step's setup, for an account that must have TOTP and has none: a new secret held in the ticket.
    app.post<{ Body: { ticket: string } }>('/login/totp/setup', { config: loginConfig, schema: { body: ticketBody } }, async (req) => {
      const t = await totp.tickets.read(req.body.ticket);
      if (!t || t.stage !== 'enroll') throw new BizError(MSG_TICKET_GONE);
      const user = await db.selectFrom('sys_user').select(['username']).where('id', '=', t.userId).executeTakeFirstOrThrow();
      const e = await newEnrolment(user.username);
      await totp.tickets.update(req.body.ticket, { ...t, pending: totp.seal(t.userId, e.secret) });
      return ok(e);
    });

    // The second step: a code from the app (or a recovery code) for the ticket; the answer is the session.
    app.post<{ Body: { ticket: string; code: string } }>('/login/totp', { config: loginConfig, schema: { body: codeBody } }, async (req) => {
      const t = await totp.tickets.read(req.body.ticket);
      if (!t) throw new BizError(MSG_TICKET_GONE);
      const user = await db.selectFrom('sys_user').selectAll().where('id', '=', t.userId).executeTakeFirst();
      try {
        if (!user) throw new BizError(MSG_TICKET_GONE);
        // the account may have been disabled since its password was proven
        const why = refusal(user);
        if (why) throw new BizError(why);
        // codes are counted apart from passwords: a right password (which resets its own count) never resets this
        const key = codeKey(user.id);
        const slot = await throttle.reserve(key);
        if (!slot.granted) throw new BizError(msgCodesLocked(Math.max(1, Math.ceil(slot.retryAfterMs / 1000))));
        let codes: string[] | undefined;
        let how: 'code' | 'recovery' | null;
        if (t.stage === 'enroll') {
          // finished meanwhile (another tab, another ticket): this ticket may not replace it
          if (await totp.enrolled(user.id)) throw new BizError(MSG_TICKET_GONE);
          const secret = t.pending ? totp.open(user.id, t.pending) : undefined;
          if (!secret) throw new BizError('请先扫描二维码完成绑定');
          const step = matchStep(secret, user.username, req.body.code);
          how = step === null ? null : 'code';
          if (step !== null) codes = await totp.enable(user.id, secret, step);
        } else how = await totp.verify(user.id, user.username, req.body.code);
        if (!how) {
          if (slot.attempt < MAX_FAILED_LOGINS) throw new BizError(`${MSG_BAD_CODE}，还可尝试 ${MAX_FAILED_LOGINS - slot.attempt} 次`);
          await totp.tickets.end(req.body.ticket);
          throw new BizError(MSG_CODES_LOCKED);
        }
        await throttle.reset(key);
        await totp.tickets.end(req.body.ticket);
        const token = await sessionFor(req, user.id);
        logSignIn(req, t.account, true, codes ? '登录成功（已绑定动态验证码）' : how === 'recovery' ? '登录成功（使用恢复码）' : '登录成功（动态验证码）', user.id);
        if (codes)
          app.audit.write({
            module: 'uams',
            action: 'POST /api/uams/login/totp',
            title: '设置双因素认证',
            targetId: user.id,
            outcome: '0',
            userId: user.id,
            username: user.username,
            address: clientKey(req),
            userAgent: req.headers['user-agent'] ?? null,
            requestId: req.id,
          });
        return ok({ token, recoveryCodes: codes });
      } catch (err) {
        logSignIn(req, t.account, false, err instanceof BizError ? err.message : '登录失败', user?.id ?? null);
        throw err;
      }
    });

    // 个人中心 › 双因素认证: the signed-in user's own TOTP (each change is in the operation log: a signed-in write)
    // an account signed in through the company's OpenID provider proves itself there (its second factor is the provider's)
    const fromProvider = async (userId: number) => (await db.selectFrom('sys_user').select('source').where('id', '=', userId).executeTakeFirst())?.source === 'oidc';
    app.get('/totp', async (req) => {
      const u = req.user!;
      if (await fromProvider(u.id)) return ok({ enabled: false, required: false, recoveryLeft: 0, provider: true });
      return ok({ enabled: await totp.enrolled(u.id), required: await totp.required(u.roles), recoveryLeft: await totp.recoveryLeft(u.id), provider: false });
    });
    app.post('/totp/setup', async (req) => {
      const u = req.user!;
      if (await fromProvider(u.id)) throw new BizError(MSG_TOTP_PROVIDER);
      if (await totp.enrolled(u.id)) throw new BizError('已启用双因素认证；如需更换，请先关闭');
      const e = await newEnrolment(u.username);
      await app.ctx.cache.set(`mfa-pending:${u.id}`, totp.seal(u.id, e.secret), TICKET_SECONDS);
      return ok(e);
    });
    app.post<{ Body: { code: string } }>('/totp/enable', { schema: { body: ownCodeBody } }, async (req) => {
      const u = req.user!;
      const pending = await app.ctx.cache.get<string>(`mfa-pending:${u.id}`);
      const secret = typeof pending === 'string' ? totp.open(u.id, pending) : undefined;
      if (!secret) throw new BizError('二维码已过期，请重新开始绑定');
      const step = matchStep(secret, u.username, req.body.code);
      if (step === null) throw new BizError(MSG_BAD_CODE);
      const codes = await totp.enable(u.id, secret, step);
      await app.ctx.cache.del(`mfa-pending:${u.id}`);
      return ok({ recoveryCodes: codes }, '已启用双因素认证');
    });
    // turning it off, or new recovery codes, needs a code from the app (a taken-over session alone cannot)
    const proveOwn = async (req: FastifyRequest, code: string) => {
      const u = req.user!;
      const key = codeKey(u.id);
      const slot = await throttle.reserve(key);
      if (!slot.granted) throw new BizError(msgCodesLocked(Math.max(1, Math.ceil(slot.retryAfterMs / 1000))));
      if (!(await totp.verify(u.id, u.username, code))) throw new BizError(slot.attempt < MAX_FAILED_LOGINS ? `${MSG_BAD_CODE}，还可尝试 ${MAX_FAILED_LOGINS - slot.attempt} 次` : MSG_CODES_LOCKED);
      await throttle.reset(key);
    };
    app.post<{ Body: { code: string } }>('/totp/disable', { schema: { body: ownCodeBody } }, async (req) => {
      const u = req.user!;
      if (!(await totp.enrolled(u.id))) throw new BizError('尚未启用双因素认证');
      if (await totp.required(u.roles)) throw new BizError('您的角色要求使用双因素认证，不能关闭');
      await proveOwn(req, req.body.code);
      await totp.remove(u.id);
      return ok(null, '已关闭双因素认证');
    });
    app.post<{ Body: { code: string } }>('/totp/recovery', { schema: { body: ownCodeBody } }, async (req) => {
      const u = req.user!;
      if (!(await totp.enrolled(u.id))) throw new BizError('尚未启用双因素认证');
      await proveOwn(req, req.body.code);
      return ok({ recoveryCodes: await totp.regenerate(u.id) }, '已生成新的恢复码');
    });

    // 认证设置 (schemas/settings/auth.settings.json): secrets answered masked, kept when sent back masked
    app.get('/settings', { config: { perm: 'system:auth:view' } }, async () => ok(maskedSettings(await readSettings(db))));
    app.post<{ Body: Partial<AuthSettings> }>('/settings', { config: { perm: 'system:auth:edit' }, schema: { body: settingsBody } }, async (req) => {
      const next = mergeForSave(await readSettings(db), req.body ?? {}, app.secrets);
      await writeSettings(db, next);
      return ok(maskedSettings(next), '保存成功');
    });
    // 测试连接 of the LDAP section, with the values on the page (a masked password: the stored one, same target only)
    app.post<{ Body: Partial<LdapSettings> }>('/settings/ldap/test', { config: { perm: 'system:auth:edit' }, schema: { body: settingsBody.properties.ldap } }, async (req) => {
      const stored = await readSettings(db);
      const tried = { ...stored.ldap, ...req.body };
      let secret: string | undefined;
      try {
        secret = app.secrets.openIncoming(req.body.bindPassword, ldapBinding(tried));
      } catch (e) {
        return ok(false, `连接失败：${(e as Error).message}`);
      }
      if (secret === undefined && req.body.bindPassword !== '' && sameTarget(ldapBinding(stored.ldap), ldapBinding(tried)))
        secret = app.secrets.openStored(stored.ldap.bindPassword, ldapBinding(stored.ldap));
      try {
        checkSettings({ ...stored, ldap: { ...tried, enabled: true } });
      } catch (e) {
        return ok(false, `连接失败：${(e as Error).message}`);
      }
      const why = await ldapTest(tried, secret);
      return why ? ok(false, `连接失败：${why}`) : ok(true, '连接成功');
    });
    // What the sign-in page offers (public: asked before anyone signs in); nothing secret
    app.get('/options', { config: { public: true } }, async () => {
      const s = await readSettings(db);
      return ok({ passwordForm: s.passwordForm, ldap: s.ldap.enabled, oidc: s.oidc.enabled ? { label: s.oidc.label || '使用企业账号登录' } : null });
    });

    // 身份映射 (schemas/pages/identityMap.page.json): a mapping may only name a role whose every permission the admin
    // saving it holds (what they could grant by hand in 用户管理), and a department that exists
    /** Refuses a mapping its editor could not have granted by hand: the role's permissions, its data scope, the department. */
    const assertMayMap = async (req: FastifyRequest, m: Record<string, any>) => {
      if (!app.ctx.config.permissionSwitch) return;
      const mine = await app.org.scopeOf(req.user);
      const deptId = m.deptId == null ? null : Number(m.deptId);
      if (deptId !== null && !mine.all && !mine.deptIds.includes(deptId)) throw new BizError(MSG_OUT_OF_SCOPE, 403);
      if (!m.roleKey) return;
      const role = await db.selectFrom('sys_role').select(['id', 'role_name']).where('role_key', '=', String(m.roleKey)).executeTakeFirst();
      if (!role) throw new BizError('角色不存在，请刷新后重新选择');
      const grants = await db.selectFrom('sys_role_permission').select('permission').where('role_id', '=', role.id).execute();
      const lacking = grants.find((g) => !hasPermission(req.user?.permissions ?? [], g.permission));
      if (lacking) throw new BizError(`不能映射您自己无法授予的角色【${role.role_name}】：缺少权限 ${lacking.permission}`, 403);
      if (!mine.all && !app.org.covers(mine, await app.org.scopeWith(0, [role.id], deptId))) throw new BizError(`不能映射数据权限比您更宽的角色【${role.role_name}】`, 403);
    };
    listPageRoutes(app, identityMaps, {
      page: 'identityMap',
      notFound: '映射不存在',
      async beforeSave(rec, stored, req) {
        rec.groupName = String(rec.groupName ?? '').trim();
        // the mapping as it will be after the save (a field left out keeps its stored value), and as it was
        const before = stored ? identityMaps.toApi(stored) : undefined;
        const after = { ...before, ...rec };
        if (!after.roleKey && after.deptId == null) throw new BizError('请至少选择角色或部门');
        if (after.roleKey && !(await db.selectFrom('sys_role').select('id').where('role_key', '=', String(after.roleKey)).executeTakeFirst())) throw new BizError('角色不存在，请刷新后重新选择');
        if (before) await assertMayMap(req, before);
        await assertMayMap(req, after);
        if (after.deptId != null && !(await app.org.tree()).some((d) => d.id === Number(after.deptId))) throw new BizError('部门不存在，请刷新后重新选择');
      },
      async beforeDelete(row, req) {
        await assertMayMap(req, identityMaps.toApi(row));
      },
      async decorate(records) {
        const roles = new Map((await db.selectFrom('sys_role').select(['role_key', 'role_name']).execute()).map((r) => [r.role_key, r.role_name]));
        const depts = new Map((await app.org.tree()).map((d) => [d.id, d.deptName]));
        return records.map((r) => ({ ...r, roleName: r.roleKey ? (roles.get(r.roleKey) ?? r.roleKey) : null, deptName: r.deptId != null ? (depts.get(r.deptId) ?? String(r.deptId)) : null }));
      },
    });

    app.get('/session/find', { config: { beforePasswordChange: true } }, async (req) => {
      const loaded = (await app.ctx.users.load(req.user!.id))!;
      const u = loaded.user;
      return ok({
        token: req.token,
        ...userFields(u),
        roles: loaded.roles,
        permissions: loaded.permissions,
        permissionSwitch: app.ctx.config.permissionSwitch,
        // an admin set the password: the shell asks for a new one before anything else (the server refuses the rest)
        mustChangePassword: u.must_change_password === 1,
        // the embedded page hands the token only to these sites (besides the console itself)
        embedTokenOrigins: app.ctx.config.embedTokenOrigins,
      });
    });

    const oidc = oidcRoutes(app, { externalAccount, sessionFor, logSignIn, sessions, rateLimit: loginConfig.rateLimit });

    // Public so that an expired session can still log out cleanly; a token, when sent, dies here. A session made
    // through the company's provider sends the browser on to the provider's sign-out (single logout) when it has one.
    app.post('/logout', { config: { public: true, beforePasswordChange: true } }, async (req) => {
      if (!req.token) return ok(LOGIN_URL);
      const away = await oidc.endSessionUrl(req, req.token);
      await sessions.revoke(req.token);
      return ok(away ?? LOGIN_URL);
    });

    app.post<{ Body: Record<string, any> }>('/user/search', { config: { perm: 'system:user:list' }, schema: { body: listQuerySchema() } }, async (req) => {
      const q = req.body ?? {};
      // the caller's data scope (issue 34), as on 用户管理's own list
      let base = usersInScope(db.selectFrom('sys_user').where('deleted', '=', 0), await app.org.scopeOf(req.user));
      if (q.search) base = base.where(matchesAny(String(q.search), ['username', 'nick_name', 'phone_number']));
      const sortable = { username: 'username', nickName: 'nick_name', createTime: 'create_time' };
      const select = (b: typeof base) => b.select(['id', 'username', 'nick_name', 'phone_number', 'email', 'avatar', 'create_time']);
      const { records, total } = await pageRows(base, q, { sortable, select, fallback: ['id'] });
      return ok({ records: records.map((r) => ({ ...userFields(r), createTime: r.create_time })), total });
    });

    // A user's own new password (the forced change after an admin set one, or any time): the old one proven (each
    // try counted like a sign-in, so a taken-over session cannot guess it), the policy kept (common/password-policy),
    // every other session of the user ended. Both passwords travel encrypted with the sign-in key; the answer is
    // a fresh token for this browser.
    app.post<{ Body: { oldPassword: string; newPassword: string } }>(
      '/user/password',
      {
        config: { beforePasswordChange: true },
        schema: {
          body: {
            type: 'object',
            required: ['oldPassword', 'newPassword'],
            properties: { oldPassword: { type: 'string', maxLength: 1024, title: '原密码' }, newPassword: { type: 'string', maxLength: 1024, title: '新密码' } },
          },
        },
      },
      async (req) => {
        let oldPlain: string;
        let newPlain: string;
        try {
          oldPlain = keys.decrypt(req.body.oldPassword);
          newPlain = keys.decrypt(req.body.newPassword);
        } catch {
          throw new BizError('密码须经公钥加密后传输，请刷新页面重试');
        }
        const user = (await db.selectFrom('sys_user').selectAll().where('id', '=', req.user!.id).executeTakeFirst())!;
        const key = `u:${user.id}`;
        const slot = await throttle.reserve(key);
        if (!slot.granted) throw new BizError(msgLocked(Math.max(1, Math.ceil(slot.retryAfterMs / 1000))));
        if (!(await verifyPassword(oldPlain, user.password_hash))) {
          if (slot.attempt < MAX_FAILED_LOGINS) throw new BizError(`原密码错误，还可尝试 ${MAX_FAILED_LOGINS - slot.attempt} 次`);
          throw new BizError(MSG_NOW_LOCKED);
        }
        await throttle.reset(key);
        const fault = passwordFault(newPlain, user.username);
        if (fault) throw new BizError(fault);
        if (newPlain === oldPlain) throw new BizError('新密码不能与原密码相同');
        await db
          .updateTable('sys_user')
          .set({ password_hash: await hashPassword(newPlain), must_change_password: 0, update_time: now() })
          .where('id', '=', user.id)
          .execute();
        await sessions.revokeUser(user.id);
        const token = await sessions.create(user.id, app.ctx.config.sessionTtl, { address: clientKey(req), userAgent: req.headers['user-agent'] ?? null });
        req.log.info({ user: user.username }, 'password changed');
        return ok({ token }, '密码已修改');
      },
    );
  };
}

export function uamsModule(keys: LoginKeys, sessions: SessionStore, migrations: ServerModule['migrations']): ServerModule {
  return { name: 'uams', prefix: '/api/uams', service: 'auth', migrations, seed: seedRolesAndUsers, needs: ['limits', 'audit', 'org', 'secrets'], plugin: uamsPlugin(keys, sessions) };
}
