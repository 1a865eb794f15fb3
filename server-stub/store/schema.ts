// The platform store's tables. Modules add theirs by declaration merging:
//   declare module '../../store/schema.js' { interface Database { my_table: MyTable } }
import type { Generated } from 'kysely';

export interface UserTable {
  id: Generated<number>;
  username: string;
  nick_name: string;
  phone_number: string | null;
  email: string | null;
  avatar: string | null;
  password_hash: string;
  /** 0 normal, 1 deleted. */
  deleted: number;
  /** The account is refused before this time ('YYYY-MM-DD HH:mm:ss'), null = effective. */
  effective_from: string | null;
  failed_logins: number;
  locked_until: string | null;
  create_time: string;
  /** 0 normal, 1 disabled (dictionary USER_STATUS): a disabled account cannot sign in and has no session. */
  status: Generated<number>;
  /** The account is refused from this time on ('YYYY-MM-DD HH:mm:ss'), null = no end. */
  effective_until: string | null;
  /** 1: the password was set by an admin; the user must change it before anything else. */
  must_change_password: Generated<number>;
  update_time: string | null;
  remark: string | null;
  /** the user's department (sys_dept, core/org.ts); null: none */
  dept_id: number | null;
  /** where the account comes from: 'local' (a password here), 'ldap' or 'oidc' (made at its first sign-in, issue 38) */
  source: Generated<string>;
}

/** Which identity at a provider is which account (modules/uams/accounts.ts). */
export interface UserIdentityTable {
  /** 'ldap' or 'oidc' */
  provider: string;
  /** the directory entry's DN, or the OpenID subject (sub) */
  subject: string;
  user_id: number;
  create_time: string;
  last_login: string | null;
}


export interface RoleTable {
  id: Generated<number>;
  role_key: string;
  role_name: string;
  /** dictionary ROLE_TYPE (sys_admin, default, dev_approve, biz_approve) */
  role_type: string | null;
  order_num: Generated<number>;
  remark: string | null;
  create_time: string | null;
  /** data scope (dictionary DATA_SCOPE, core/org.ts): 1 全部, 2 自定义, 3 本部门, 4 本部门及以下, 5 仅本人 */
  data_scope: Generated<string>;
}

export interface UserRoleTable {
  user_id: number;
  role_id: number;
}

export interface RolePermissionTable {
  role_id: number;
  permission: string;
}

export interface SessionTable {
  /** sha256 of the token: a leaked table does not leak live tokens. */
  token_hash: string;
  user_id: number;
  expires_at: number;
  create_time: string;
  /** where and with what the session was made, and when it was last used (at most a minute old): 在线用户 */
  address: string | null;
  user_agent: string | null;
  last_seen: string | null;
}

export interface MenuTable {
  id: Generated<number>;
  menu_key: string;
  parent_key: string | null;
  module_type: string;
  order_num: number;
  /** The declaration of one entry without its children, as JSON. */
  entry: string;
  /** 1 when added from the page manager (custom page), 0 when seeded. */
  custom: number;
}

export interface RoleMenuTable {
  role_key: string;
  menu_key: string;
}

export interface SettingTable {
  key: string;
  value: string;
}

/** A local account's second factor (modules/uams/totp.ts): one row per account that set one up. */
export interface UserMfaTable {
  user_id: number;
  /** the TOTP secret, sealed under the account (core/secrets.ts) */
  secret: string;
  /** 1 once a code proved the setup */
  enabled: number;
  /** the last time step a code was accepted for (a code is accepted once) */
  last_step: number | null;
  /** JSON array of the SHA-256 hashes of the recovery codes not yet used */
  recovery: string;
  create_time: string;
  update_time: string | null;
}

export interface Database {
  sys_user_mfa: UserMfaTable;
  sys_user_identity: UserIdentityTable;
  sys_user: UserTable;
  sys_role: RoleTable;
  sys_user_role: UserRoleTable;
  sys_role_permission: RolePermissionTable;
  sys_session: SessionTable;
  sys_menu: MenuTable;
  sys_role_menu: RoleMenuTable;
  sys_setting: SettingTable;
}
