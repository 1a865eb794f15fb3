// Sign-in, session, logout and the user list (spec part 1 §7 "Session"; DESIGN §4).
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { BizError, LOGIN_URL, ok } from '../../core/envelope.js';
import type { ServerModule } from '../../core/module.js';
import { verifyPassword, type LoginKeys } from '../../core/passwords.js';
import type { SessionStore } from '../../core/sessions.js';
import { loadUser, refusal } from '../../core/users.js';
import { now } from '../../store/columns.js';
import { listQuerySchema, pageOf } from '../../core/list.js';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_SECONDS = 60;
export const MSG_BAD_CREDENTIALS = '账号或密码错误';

const loginBody = {
  type: 'object',
  required: ['mobilePhone', 'password'],
  properties: {
    loginType: { type: 'string', maxLength: 32, title: '登录方式' },
    area: { type: 'string', maxLength: 8, title: '区号' },
    mobilePhone: { type: 'string', minLength: 1, maxLength: 64, title: '账号' },
    password: { type: 'string', minLength: 1, maxLength: 1024, title: '密码' },
    smsCodeKey: { type: 'string', maxLength: 128 },
    smsCode: { type: 'string', maxLength: 16 },
  },
} as const;

export function uamsPlugin(keys: LoginKeys, sessions: SessionStore): FastifyPluginAsync {
  return async (app) => {
    const { db } = app.ctx;

    app.get('/publicKey', { config: { public: true } }, async () => ok(keys.publicPem));

    app.post<{ Body: { mobilePhone: string; password: string } }>('/login', { config: { public: true }, schema: { body: loginBody } }, async (req) => {
      const account = req.body.mobilePhone.trim();
      let plain: string;
      try {
        plain = keys.decrypt(req.body.password);
      } catch {
        throw new BizError('密码须经公钥加密后传输，请刷新页面重试');
      }
      const user = await db.selectFrom('sys_user').selectAll().where((eb) => eb.or([eb('username', '=', account), eb('phone_number', '=', account)])).executeTakeFirst();
      if (!user) throw new BizError(MSG_BAD_CREDENTIALS);
      if (user.locked_until && user.locked_until > now()) {
        const left = Math.max(1, Math.ceil((Date.parse(user.locked_until.replace(' ', 'T')) - Date.now()) / 1000));
        throw new BizError(`密码错误次数过多，账号已锁定，请 ${left} 秒后再试`);
      }
      if (!(await verifyPassword(plain, user.password_hash))) {
        const failed = user.failed_logins + 1;
        if (failed >= MAX_FAILED_LOGINS) {
          await db.updateTable('sys_user').set({ failed_logins: 0, locked_until: now(new Date(Date.now() + LOCK_SECONDS * 1000)) }).where('id', '=', user.id).execute();
          throw new BizError(`密码连续输错 ${MAX_FAILED_LOGINS} 次，账号已锁定 1 分钟`);
        }
        await db.updateTable('sys_user').set({ failed_logins: failed }).where('id', '=', user.id).execute();
        throw new BizError(`${MSG_BAD_CREDENTIALS}，还可尝试 ${MAX_FAILED_LOGINS - failed} 次`);
      }
      const why = refusal(user);
      if (why) throw new BizError(why);
      await db.updateTable('sys_user').set({ failed_logins: 0, locked_until: null }).where('id', '=', user.id).execute();
      const token = await sessions.create(user.id, app.ctx.config.sessionTtl);
      req.log.info({ user: user.username }, 'login');
      return ok({ token });
    });

    app.get('/session/find', async (req) => {
      const loaded = (await loadUser(db, req.user!.id))!;
      const u = loaded.user;
      return ok({
        token: req.token,
        id: u.id,
        username: u.username,
        nickName: u.nick_name,
        phoneNumber: u.phone_number,
        email: u.email,
        avatar: u.avatar,
        roles: loaded.roles,
        permissions: loaded.permissions,
        permissionSwitch: app.ctx.config.permissionSwitch,
      });
    });

    // Public so that an expired session can still log out cleanly; a token, when sent, dies here.
    app.post('/logout', { config: { public: true } }, async (req) => {
      if (req.token) await sessions.revoke(req.token);
      return ok(LOGIN_URL);
    });

    app.post<{ Body: Record<string, any> }>('/user/search', { config: { perm: 'system:user:list' }, schema: { body: listQuerySchema() } }, async (req) => {
      const q = req.body ?? {};
      let base = db.selectFrom('sys_user').where('deleted', '=', 0);
      if (q.search) {
        const like = `%${String(q.search)}%`;
        base = base.where((eb) => eb.or([eb('username', 'like', like), eb('nick_name', 'like', like), eb('phone_number', 'like', like)]));
      }
      const sortable: Record<string, string> = { username: 'username', nickName: 'nick_name', createTime: 'create_time' };
      const { limit, offset, order } = pageOf(q, sortable);
      const [{ total }] = await base.select(sql<number>`count(*)`.as('total')).execute();
      let rows = base.select(['id', 'username', 'nick_name', 'phone_number', 'email', 'avatar', 'create_time']);
      rows = order ? rows.orderBy(sql.ref(order.column), order.dir) : rows.orderBy('id');
      const records = await rows.limit(limit).offset(offset).execute();
      return ok({
        records: records.map((r) => ({ id: r.id, username: r.username, nickName: r.nick_name, phoneNumber: r.phone_number, email: r.email, avatar: r.avatar, createTime: r.create_time })),
        total: Number(total),
      });
    });
  };
}

export function uamsModule(keys: LoginKeys, sessions: SessionStore, migrations: ServerModule['migrations']): ServerModule {
  return { name: 'uams', prefix: '/api/uams', service: 'auth', migrations, plugin: uamsPlugin(keys, sessions) };
}
