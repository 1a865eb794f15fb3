// 认证设置 (issue 38): how people sign in, kept as one JSON value in sys_setting under `auth.settings`. Secrets (the
// LDAP service account's password, the OIDC client secret) are sealed with the deployment's key, bound to the
// target they are sent to (a changed server or client id needs the secret typed again), and answered masked.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { MASK, type Secrets, type SecretBinding } from '../../core/secrets.js';
import { BizError } from '../../core/envelope.js';

export const SETTINGS_KEY = 'auth.settings';

export interface MfaSettings {
  /** 要求双因素认证: the roles below must set up TOTP at their next password sign-in */
  enabled: boolean;
  roles: string[];
}

export interface LdapSettings {
  enabled: boolean;
  /** ldap://host:389 or ldaps://host:636 */
  url: string;
  startTls: boolean;
  /** PEM of the CA that signed the directory's certificate (empty: the system's) */
  ca: string;
  /** 'bind': bind as the user with the DN template; 'search': bind as the service account, find the user, bind as them */
  mode: 'bind' | 'search';
  /** bind mode: the user's DN or UPN with {account}, e.g. {account}@corp.example or uid={account},ou=people,dc=x */
  userDnTemplate: string;
  bindDn: string;
  /** sealed; MASK in answers */
  bindPassword: string;
  baseDn: string;
  /** search mode: {account} is replaced by the escaped account */
  userFilter: string;
  attrUsername: string;
  attrName: string;
  attrEmail: string;
  attrPhone: string;
  attrGroups: string;
  timeoutMs: number;
}

export interface OidcSettings {
  enabled: boolean;
  /** the button's text on the sign-in page */
  label: string;
  issuer: string;
  clientId: string;
  /** sealed; MASK in answers */
  clientSecret: string;
  scopes: string;
  claimUsername: string;
  claimName: string;
  claimEmail: string;
  claimPhone: string;
  claimGroups: string;
}

export interface AuthSettings {
  /** who sees the local password form: everyone, or only when asked for (/login?local=1: the admin's way in) */
  passwordForm: 'everyone' | 'admins';
  mfa: MfaSettings;
  ldap: LdapSettings;
  oidc: OidcSettings;
}

export const DEFAULT_SETTINGS: AuthSettings = {
  passwordForm: 'everyone',
  mfa: { enabled: false, roles: ['sys_admin'] },
  ldap: {
    enabled: false,
    url: '',
    startTls: false,
    ca: '',
    mode: 'search',
    userDnTemplate: '',
    bindDn: '',
    bindPassword: '',
    baseDn: '',
    userFilter: '(&(objectClass=user)(sAMAccountName={account}))',
    attrUsername: 'sAMAccountName',
    attrName: 'displayName',
    attrEmail: 'mail',
    attrPhone: 'telephoneNumber',
    attrGroups: 'memberOf',
    timeoutMs: 5000,
  },
  oidc: {
    enabled: false,
    label: '使用企业账号登录',
    issuer: '',
    clientId: '',
    clientSecret: '',
    scopes: 'openid profile email phone',
    claimUsername: 'preferred_username',
    claimName: 'name',
    claimEmail: 'email',
    claimPhone: 'phone_number',
    claimGroups: 'groups',
  },
};

const str = (title: string, maxLength: number) => ({ type: 'string', maxLength, title });
const bool = (title: string) => ({ type: 'boolean', title });

/** The save's body (Fastify validates it; titles name the fields in the refusal). */
export const settingsBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    passwordForm: { type: 'string', enum: ['everyone', 'admins'], title: '本地密码登录' },
    mfa: {
      type: 'object',
      additionalProperties: false,
      properties: { enabled: bool('要求双因素认证'), roles: { type: 'array', maxItems: 100, items: str('角色', 32), title: '必须使用的角色' } },
    },
    ldap: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: bool('启用 LDAP'),
        url: str('服务器地址', 512),
        startTls: bool('StartTLS'),
        ca: str('CA 证书', 20000),
        mode: { type: 'string', enum: ['bind', 'search'], title: '认证方式' },
        userDnTemplate: str('用户 DN 模板', 512),
        bindDn: str('服务账号 DN', 512),
        bindPassword: str('服务账号密码', 1024),
        baseDn: str('搜索起点（Base DN）', 512),
        userFilter: str('用户过滤条件', 512),
        attrUsername: str('账号属性', 64),
        attrName: str('姓名属性', 64),
        attrEmail: str('邮箱属性', 64),
        attrPhone: str('电话属性', 64),
        attrGroups: str('组属性', 64),
        timeoutMs: { type: 'integer', minimum: 500, maximum: 60000, title: '超时（毫秒）' },
      },
    },
    oidc: {
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: bool('启用 OIDC'),
        label: str('按钮文字', 32),
        issuer: str('Issuer', 512),
        clientId: str('Client ID', 256),
        clientSecret: str('Client Secret', 1024),
        scopes: str('Scopes', 256),
        claimUsername: str('账号声明', 64),
        claimName: str('姓名声明', 64),
        claimEmail: str('邮箱声明', 64),
        claimPhone: str('电话声明', 64),
        claimGroups: str('组声明', 64),
      },
    },
  },
} as const;

/** The LDAP service password is for this server, reached this way (StartTLS, the CA trusted), as this account. */
export const ldapBinding = (l: Pick<LdapSettings, 'url' | 'bindDn' | 'startTls' | 'ca'>): SecretBinding => ({
  table: 'sys_setting',
  id: null,
  host: `ldap:${l.url.trim()}|starttls=${l.startTls ? 1 : 0}|ca=${createHash('sha256').update(l.ca.trim()).digest('hex').slice(0, 16)}`,
  account: l.bindDn.trim(),
});
export const oidcBinding = (o: Pick<OidcSettings, 'issuer' | 'clientId'>): SecretBinding => ({ table: 'sys_setting', id: null, host: `oidc:${o.issuer.trim()}`, account: o.clientId.trim() });

/** The settings as stored (secrets sealed), each part over its defaults. */
export async function readSettings(db: Kysely<Database>): Promise<AuthSettings> {
  const row = await db.selectFrom('sys_setting').select('value').where('key', '=', SETTINGS_KEY).executeTakeFirst();
  let stored: Partial<AuthSettings> = {};
  try {
    stored = row ? (JSON.parse(row.value) as Partial<AuthSettings>) : {};
  } catch {
    stored = {};
  }
  return {
    passwordForm: stored.passwordForm === 'admins' ? 'admins' : 'everyone',
    mfa: { ...DEFAULT_SETTINGS.mfa, ...stored.mfa },
    ldap: { ...DEFAULT_SETTINGS.ldap, ...stored.ldap },
    oidc: { ...DEFAULT_SETTINGS.oidc, ...stored.oidc },
  };
}

/** As the settings page shows them: every secret masked. */
export function maskedSettings(s: AuthSettings): AuthSettings {
  return { ...s, ldap: { ...s.ldap, bindPassword: s.ldap.bindPassword ? MASK : '' }, oidc: { ...s.oidc, clientSecret: s.oidc.clientSecret ? MASK : '' } };
}

const checkUrl = (value: string, protocols: string[], field: string) => {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new BizError(`${field}格式不正确`);
  }
  if (!protocols.includes(u.protocol)) throw new BizError(`${field}须以 ${protocols.map((p) => `${p}//`).join(' 或 ')} 开头`);
};

/** The placeholder every LDAP template and filter names the account with. */
export const ACCOUNT_PLACEHOLDER = '{account}';

/** Checks what an enabled way in needs; refuses with the reason in Chinese. */
export function checkSettings(s: AuthSettings): void {
  if (s.ldap.enabled || s.ldap.url) {
    if (s.ldap.enabled && !s.ldap.url) throw new BizError('请填写 LDAP 服务器地址');
    if (s.ldap.url) checkUrl(s.ldap.url, ['ldap:', 'ldaps:'], 'LDAP 服务器地址');
    if (s.ldap.enabled && s.ldap.mode === 'bind' && !s.ldap.userDnTemplate.includes(ACCOUNT_PLACEHOLDER)) throw new BizError(`用户 DN 模板须包含 ${ACCOUNT_PLACEHOLDER}`);
    if (s.ldap.enabled && s.ldap.mode === 'search') {
      if (!s.ldap.baseDn) throw new BizError('请填写搜索起点（Base DN）');
      if (!s.ldap.userFilter.includes(ACCOUNT_PLACEHOLDER)) throw new BizError(`用户过滤条件须包含 ${ACCOUNT_PLACEHOLDER}`);
      if (!s.ldap.userFilter.startsWith('(') || !s.ldap.userFilter.endsWith(')')) throw new BizError('用户过滤条件须以括号包围，如 (sAMAccountName={account})');
    }
  }
  if (s.oidc.enabled) {
    if (!s.oidc.issuer) throw new BizError('请填写 Issuer');
    if (!s.oidc.clientId) throw new BizError('请填写 Client ID');
    if (!s.oidc.scopes.split(/\s+/).includes('openid')) throw new BizError('Scopes 须包含 openid');
  }
  if (s.oidc.issuer) checkUrl(s.oidc.issuer, ['https:', 'http:'], 'Issuer');
}

/**
 * The settings to store from a save: what the body holds over what is stored; each secret kept when the body
 * answers it masked (and its target is unchanged), sealed when typed, cleared when emptied.
 */
export function mergeForSave(stored: AuthSettings, body: Partial<AuthSettings>, secrets: Secrets): AuthSettings {
  const next: AuthSettings = {
    passwordForm: body.passwordForm ?? stored.passwordForm,
    mfa: { ...stored.mfa, ...body.mfa },
    ldap: { ...stored.ldap, ...body.ldap },
    oidc: { ...stored.oidc, ...body.oidc },
  };
  next.mfa.roles = [...new Set(next.mfa.roles.map((r) => r.trim()).filter(Boolean))];
  for (const k of ['url', 'bindDn', 'baseDn', 'userFilter', 'userDnTemplate'] as const) next.ldap[k] = next.ldap[k].trim();
  for (const k of ['issuer', 'clientId', 'scopes'] as const) next.oidc[k] = next.oidc[k].trim();
  const seal = (incoming: string | undefined, was: string, before: SecretBinding, after: SecretBinding) => {
    try {
      const d = secrets.resolveForSave(incoming, { value: was, binding: before }, after);
      return 'plain' in d ? secrets.encrypt(d.plain, after) : (d.store ?? '');
    } catch (e) {
      throw new BizError((e as Error).message);
    }
  };
  next.ldap.bindPassword = seal(body.ldap?.bindPassword, stored.ldap.bindPassword, ldapBinding(stored.ldap), ldapBinding(next.ldap));
  next.oidc.clientSecret = seal(body.oidc?.clientSecret, stored.oidc.clientSecret, oidcBinding(stored.oidc), oidcBinding(next.oidc));
  checkSettings(next);
  return next;
}

export async function writeSettings(db: Kysely<Database>, s: AuthSettings): Promise<void> {
  const value = JSON.stringify(s);
  const had = await db.selectFrom('sys_setting').select('key').where('key', '=', SETTINGS_KEY).executeTakeFirst();
  if (had) await db.updateTable('sys_setting').set({ value }).where('key', '=', SETTINGS_KEY).execute();
  else await db.insertInto('sys_setting').values({ key: SETTINGS_KEY, value }).execute();
}
