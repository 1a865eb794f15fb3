// Column helpers so one migration runs on SQLite and PostgreSQL alike.
import type { ColumnDataType, CreateTableBuilder } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** Adds an auto-increment integer primary key `id`. */
export function idColumn<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * A link table: two not-null columns that together are its primary key (a user's roles, a role's permissions, a
 * role's menus, an entry's images).
 */
export function linkTable(table: CreateTableBuilder<string, never>, key: string, [a, aType]: [string, ColumnDataType], [b, bType]: [string, ColumnDataType]) {
  return table
    .addColumn(a, aType, (c) => c.notNull())
    .addColumn(b, bType, (c) => c.notNull())
    .addPrimaryKeyConstraint(key, [a, b]);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local time as 'YYYY-MM-DD HH:mm:ss', the format every time column uses. */
export function now(d = new Date()): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
