// LDAP / Active Directory sign-in (issue 38 item 2) with ldapts: bind as the user through a DN template, or find
// them with the service account and bind as what was found; StartTLS or LDAPS, with the directory's CA when given.
// The account is escaped before it meets a filter (RFC 4515) or a DN (RFC 4514), so `*)(uid=*` finds nobody; an
// empty password is refused before any bind (a directory takes it as an anonymous bind that "succeeds").
// Every failure is said in Chinese; the person signing in hears only 账号或密码错误 unless the directory is down.
import { Client, InvalidCredentialsError, type Entry } from 'ldapts';
import type { ConnectionOptions } from 'node:tls';
import { ACCOUNT_PLACEHOLDER, type LdapSettings } from './settings.js';
import type { ExternalIdentity } from './accounts.js';

/** Who the directory says signed in: the entry's DN is the subject; groups are each memberOf DN's first value
 * (e.g. bi-designers) and the DNs themselves. */
export type DirectoryIdentity = Omit<ExternalIdentity, 'provider'>;

/** A failure with the words to show: `who` says whether the person signing in may read them (or the admin only). */
export class LdapFault extends Error {
  constructor(
    message: string,
    readonly forUser: boolean,
  ) {
    super(message);
  }
}

export const MSG_LDAP_DOWN = 'LDAP 服务器暂时无法连接，请稍后再试或联系管理员';

/** RFC 4515: a value placed inside a filter (each special character as its \\xx escape). */
export function escapeFilter(v: string): string {
  return v.replace(/[\\*()\0]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** RFC 4514: a value placed inside a DN. */
export function escapeDnValue(v: string): string {
  return v
    .replace(/[\\,+"<>;=#]/g, (c) => `\\${c}`)
    .replace(/^ /, '\\ ')
    .replace(/ $/, '\\ ')
    .replace(/\0/g, '\\00');
}

/** What a connection or operation error means, in Chinese. */
export function ldapReason(e: unknown): string {
  const err = e as { code?: unknown; message?: string };
  const code = typeof err?.code === 'string' ? err.code : '';
  const text = String(err?.message ?? e);
  if (code === 'ECONNREFUSED') return '连接被拒绝（服务器未运行或端口不对）';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return '找不到服务器地址';
  if (code === 'ETIMEDOUT' || /timeout|timed out/i.test(text)) return '等待超时，服务器没有应答';
  if (code === 'ECONNRESET') return '连接被服务器断开';
  if (/self[- ]signed|unable to verify|certificate|DEPTH_ZERO|CERT_/i.test(code + text)) return `证书校验失败（${code || text}），请填写签发服务器证书的 CA`;
  if (/wrong version number|EPROTO/i.test(code + text)) return 'TLS 握手失败：地址的协议与端口不符（ldaps:// 通常为 636，StartTLS 用 ldap://）';
  return text.slice(0, 200);
}

function tlsOf(s: LdapSettings): ConnectionOptions {
  const host = (() => {
    try {
      return new URL(s.url).hostname;
    } catch {
      return undefined;
    }
  })();
  return { ...(s.ca.trim() ? { ca: [s.ca] } : {}), servername: host && !/^[\d.]+$/.test(host) ? host : undefined, minVersion: 'TLSv1.2' };
}

async function connect(s: LdapSettings): Promise<Client> {
  // tlsOptions only for ldaps:// (ldapts speaks TLS from the first byte whenever they are given)
  const client = new Client({ url: s.url, timeout: s.timeoutMs, connectTimeout: s.timeoutMs, ...(s.url.startsWith('ldaps:') ? { tlsOptions: tlsOf(s) } : {}), strictDN: false });
  if (s.startTls && s.url.startsWith('ldap:')) await client.startTLS(tlsOf(s));
  return client;
}

const first = (v: Entry[string] | undefined): string | null => {
  const x = Array.isArray(v) ? v[0] : v;
  if (x === undefined || x === null) return null;
  return Buffer.isBuffer(x) ? x.toString('utf8') : String(x);
};
const all = (v: Entry[string] | undefined): string[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]).map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)));

/** A memberOf DN's first value (CN=bi-designers,OU=Groups,… → bi-designers). */
export function groupName(dn: string): string {
  const m = /^\s*[^=]+=((?:\\.|[^,\\])*)/.exec(dn);
  return m ? m[1].replace(/\\(.)/g, '$1').trim() : dn;
}

function identityOf(s: LdapSettings, entry: Entry, account: string): DirectoryIdentity {
  const memberOf = all(entry[s.attrGroups]);
  return {
    subject: entry.dn,
    username: (first(entry[s.attrUsername]) ?? account).slice(0, 64),
    name: (first(entry[s.attrName]) ?? account).slice(0, 64),
    email: first(entry[s.attrEmail])?.slice(0, 128) ?? null,
    phone: first(entry[s.attrPhone])?.slice(0, 32) ?? null,
    groups: [...new Set([...memberOf.map(groupName), ...memberOf])],
  };
}

const attributesOf = (s: LdapSettings) => [s.attrUsername, s.attrName, s.attrEmail, s.attrPhone, s.attrGroups].filter(Boolean);

/** Proves `account` / `password` against the directory and reads who it is. Throws LdapFault. */
export async function ldapSignIn(s: LdapSettings, serviceSecret: string | undefined, account: string, password: string): Promise<DirectoryIdentity> {
  if (!password) throw new LdapFault('请输入密码', true);
  let client: Client;
  try {
    client = await connect(s);
  } catch (e) {
    throw new LdapFault(`${MSG_LDAP_DOWN}（${ldapReason(e)}）`, true);
  }
  try {
    if (s.mode === 'bind') {
      const dn = s.userDnTemplate.split(ACCOUNT_PLACEHOLDER).join(escapeDnValue(account));
      await bindAs(client, dn, password);
      // the entry of the very account that was bound (never one a filter finds for the typed name: in AD a CN or a
      // UPN prefix may be another person's sAMAccountName): by its DN, or by its UPN when the template makes one;
      // a directory that lets nobody read it still signs the person in, with the account as their name
      const found = await (
        dn.includes('=')
          ? client.search(dn, { scope: 'base', attributes: attributesOf(s) })
          : s.baseDn
            ? client.search(s.baseDn, { scope: 'sub', filter: `(userPrincipalName=${escapeFilter(dn)})`, attributes: attributesOf(s), sizeLimit: 2 })
            : Promise.resolve({ searchEntries: [] as Entry[] })
      ).catch(() => ({ searchEntries: [] as Entry[] }));
      const entry = found.searchEntries.length === 1 ? found.searchEntries[0] : ({ dn } as Entry);
      return identityOf(s, entry, account);
    }
    try {
      await client.bind(s.bindDn, serviceSecret ?? '');
    } catch (e) {
      throw e instanceof InvalidCredentialsError ? new LdapFault('服务账号 DN 或密码错误，请联系管理员检查认证设置', false) : e;
    }
    const filter = s.userFilter.split(ACCOUNT_PLACEHOLDER).join(escapeFilter(account));
    const found = await client.search(s.baseDn, { scope: 'sub', filter, attributes: attributesOf(s), sizeLimit: 2 });
    // nobody, or more than one person for one name: the same answer as a wrong password
    if (found.searchEntries.length !== 1) throw new LdapFault('账号或密码错误', true);
    const entry = found.searchEntries[0];
    await bindAs(client, entry.dn, password);
    return identityOf(s, entry, account);
  } catch (e) {
    if (e instanceof LdapFault) throw e;
    throw new LdapFault(`${MSG_LDAP_DOWN}（${ldapReason(e)}）`, true);
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

async function bindAs(client: Client, dn: string, password: string) {
  try {
    await client.bind(dn, password);
  } catch (e) {
    if (e instanceof InvalidCredentialsError) throw new LdapFault('账号或密码错误', true);
    throw e;
  }
}

/** 测试连接: connects (and StartTLS), binds as the service account and reads the base; the reason when it fails. */
export async function ldapTest(s: LdapSettings, serviceSecret: string | undefined): Promise<string | null> {
  if (!s.url) return '请填写服务器地址';
  let client: Client;
  try {
    client = await connect(s);
  } catch (e) {
    return ldapReason(e);
  }
  try {
    if (s.mode === 'search' || s.bindDn) {
      try {
        await client.bind(s.bindDn, serviceSecret ?? '');
      } catch (e) {
        return e instanceof InvalidCredentialsError ? '服务账号 DN 或密码错误' : ldapReason(e);
      }
    }
    if (s.baseDn) {
      try {
        await client.search(s.baseDn, { scope: 'base', attributes: ['dn'] });
      } catch (e) {
        const code = (e as { code?: number }).code;
        return code === 32 ? `搜索起点不存在：${s.baseDn}` : code === 50 ? '服务账号无权读取搜索起点' : ldapReason(e);
      }
    }
    return null;
  } finally {
    await client.unbind().catch(() => undefined);
  }
}
