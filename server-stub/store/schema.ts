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
}

export interface RoleTable {
  id: Generated<number>;
  role_key: string;
  role_name: string;
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

export interface Database {
  sys_user: UserTable;
  sys_role: RoleTable;
  sys_user_role: UserRoleTable;
  sys_role_permission: RolePermissionTable;
  sys_session: SessionTable;
  sys_menu: MenuTable;
  sys_role_menu: RoleMenuTable;
  sys_setting: SettingTable;
}
