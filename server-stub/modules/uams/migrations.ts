import type { Migration } from 'kysely';
import { migration } from '../../core/tables.js';
import { identityMaps } from './accounts.js';
import { idColumn, linkTable } from '../../store/columns.js';

export function uamsMigrations(): Record<string, Migration> {
  return {
    ...identityMaps.migrations,
    '20261122_01_uams': migration(async (db, dialect) => {
      await idColumn(db.schema.createTable('sys_user'), dialect)
        .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('nick_name', 'varchar(64)', (c) => c.notNull())
        .addColumn('phone_number', 'varchar(32)')
        .addColumn('email', 'varchar(128)')
        .addColumn('avatar', 'varchar(512)')
        .addColumn('password_hash', 'varchar(256)', (c) => c.notNull())
        .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('effective_from', 'varchar(19)')
        .addColumn('failed_logins', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locked_until', 'varchar(19)')
        .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
        .execute();
      await idColumn(db.schema.createTable('sys_role'), dialect)
        .addColumn('role_key', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('role_name', 'varchar(64)', (c) => c.notNull())
        .execute();
      await linkTable(db.schema.createTable('sys_user_role'), 'sys_user_role_pk', ['user_id', 'integer'], ['role_id', 'integer']).execute();
      await linkTable(db.schema.createTable('sys_role_permission'), 'sys_role_permission_pk', ['role_id', 'integer'], ['permission', 'varchar(128)']).execute();
      await db.schema
        .createTable('sys_session')
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('sys_setting')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    }),
    // Sign-in attempts per known account or submitted unknown name (core/throttle.ts); sys_user's
    // failed_logins / locked_until are no longer read.
    '20261122_16_uams_login_attempt': migration(async (db) => {
      await db.schema
        .createTable('sys_login_attempt')
        .addColumn('account_key', 'varchar(128)', (c) => c.primaryKey())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    }),
    // System management (issue 21): a user's status, end date, forced password change; a role's type and order.
    '20261125_10_uams_system': migration(async (db) => {
      const user = (name: string, type: 'integer' | 'varchar(19)' | 'varchar(500)', dflt?: number) =>
        db.schema
          .alterTable('sys_user')
          .addColumn(name, type, (c) => (dflt === undefined ? c : c.notNull().defaultTo(dflt)))
          .execute();
      await user('status', 'integer', 0);
      await user('effective_until', 'varchar(19)');
      await user('must_change_password', 'integer', 0);
      await user('update_time', 'varchar(19)');
      await user('remark', 'varchar(500)');
      await db.schema.alterTable('sys_role').addColumn('role_type', 'varchar(32)').execute();
      await db.schema
        .alterTable('sys_role')
        .addColumn('order_num', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('sys_role').addColumn('remark', 'varchar(500)').execute();
      await db.schema.alterTable('sys_role').addColumn('create_time', 'varchar(19)').execute();
      // 在线用户: where a session was made, with what, and when it was last used
      await db.schema.alterTable('sys_session').addColumn('address', 'varchar(64)').execute();
      await db.schema.alterTable('sys_session').addColumn('user_agent', 'varchar(300)').execute();
      await db.schema.alterTable('sys_session').addColumn('last_seen', 'varchar(19)').execute();
      // the shipped roles are the four types of the ROLE_TYPE dictionary
      await db
        .updateTable('sys_role')
        .set((eb) => ({ role_type: eb.ref('role_key') }))
        .where('role_key', 'in', ['sys_admin', 'default', 'dev_approve', 'biz_approve'])
        .execute();
    }),
    // The second factor of local accounts (issue 38): modules/uams/totp.ts
    '20261208_01_uams_mfa': migration(async (db) => {
      await db.schema
        .createTable('sys_user_mfa')
        .addColumn('user_id', 'integer', (c) => c.primaryKey())
        .addColumn('secret', 'varchar(512)', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_step', 'bigint')
        .addColumn('recovery', 'text', (c) => c.notNull())
        .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
        .addColumn('update_time', 'varchar(19)')
        .execute();
    }),
    // Accounts from the company's identity (issue 38): where an account comes from, which identity is which
    // account, and the groups that grant roles and departments (modules/uams/accounts.ts)
    '20261208_02_uams_identity': migration(async (db) => {
      await db.schema
        .alterTable('sys_user')
        .addColumn('source', 'varchar(16)', (c) => c.notNull().defaultTo('local'))
        .execute();
      await db.schema
        .createTable('sys_user_identity')
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('subject', 'varchar(512)', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
        .addColumn('last_login', 'varchar(19)')
        .addPrimaryKeyConstraint('sys_user_identity_pk', ['provider', 'subject'])
        .execute();
    }),
  };
}
