// The catalogue of a registered data source, shared by pages on existing tables (issue 24) and datasets (issue 35):
// read through app.sql (PostgreSQL: information_schema and pg_catalog; MySQL / MariaDB: information_schema; SQLite:
// sqlite_master and pragma_table_info), and the SQL of one table's records. Every identifier in that SQL comes from the
// catalogue the page was saved with (quoted by the dialect's rule); a request only ever supplies values, which
// are bound, or names that are looked up in the catalogue and refused when absent.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COLUMN_NAME_RE, valueKindOf, type CatalogueColumn, type ForeignKeyTarget, type TableCatalogue, type TableDialect, type ValueKind } from '../../common/tablePage.js';
import { BizError } from './envelope.js';
import type { DatasourceTable } from './datasources.js';
import { likePattern } from './declarations.js';
import { isSystemDatabase, systemDatabaseMessage } from '../connectors/sql/index.js';

export interface TableRef {
  /** as shown and as the generate call takes it: schema.table on PostgreSQL outside public, else the name */
  name: string;
  schema: string | null;
  table: string;
  kind: 'table' | 'view';
}

export function dialectOf(row: DatasourceTable): TableDialect {
  const t = String(row.db_type).toLowerCase();
  if (t === 'postgresql' || t === 'mysql' || t === 'mariadb' || t === 'sqlite') return t;
  throw new BizError(`不支持的数据库类型：${row.db_type}`);
}

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
/** A column's comment as a label: its first line, trimmed, at most 50 characters; null when empty. */
const commentOf = (v: unknown): string | null => {
  const text = typeof v === 'string' ? v.split(/\r?\n/)[0].trim().slice(0, 50) : '';
  return text || null;
};
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number.isFinite(Number(v)) ? Number(v) : null);

/** The tables and views of a data source (system schemas left out). */
export async function listTables(app: FastifyInstance, row: DatasourceTable, req: FastifyRequest): Promise<TableRef[]> {
  const dialect = dialectOf(row);
  if (dialect === 'postgresql') {
    const r = await app.sql.run(
      'datasource',
      row,
      `select table_schema as s, table_name as t, table_type as k from information_schema.tables
        where table_schema not in ('pg_catalog', 'information_schema') and table_schema not like 'pg\\_%' and table_type in ('BASE TABLE', 'VIEW')
        order by table_schema = 'public' desc, table_schema, table_name`,
      [],
      req,
    );
    // and never a system schema, however the query above reads (issue 40)
    return r.rows
      .filter((x) => !isSystemDatabase('postgresql', String(x.s)))
      .map((x) => ({ name: x.s === 'public' ? String(x.t) : `${x.s}.${x.t}`, schema: String(x.s), table: String(x.t), kind: x.k === 'VIEW' ? 'view' : 'table' }));
  }
  if (dialect === 'sqlite') {
    const r = await app.sql.run('datasource', row, `select name as t, type as k from sqlite_master where type in ('table', 'view') and name not like 'sqlite\\_%' escape '\\' order by name`, [], req);
    return r.rows.map((x) => ({ name: String(x.t), schema: null, table: String(x.t), kind: x.k === 'view' ? 'view' : 'table' }));
  }
  // a data source on a system database is refused when its pool is built; its tables are never listed either
  if (isSystemDatabase(dialect, row.db_name)) throw new BizError(systemDatabaseMessage(String(row.db_name), dialect));
  const r = await app.sql.run(
    'datasource',
    row,
    `select table_name as t, table_type as k from information_schema.tables where table_schema = database() and table_schema not in ('mysql', 'information_schema', 'performance_schema', 'sys') order by table_name`,
    [],
    req,
  );
  return r.rows.map((x) => ({ name: String(x.t), schema: null, table: String(x.t), kind: x.k === 'VIEW' || x.k === 'SYSTEM VIEW' ? 'view' : 'table' }));
}

/** Finds a table by the name a request gives (compared to the catalogue, never used as SQL). */
export async function findTable(app: FastifyInstance, row: DatasourceTable, name: string, req: FastifyRequest, schema?: string | null): Promise<TableRef> {
  const all = await listTables(app, row, req);
  const hit = all.find((t) => (schema ? t.schema === schema && t.table === name : t.name === name)) ?? all.find((t) => t.table === name && (!schema || t.schema === schema));
  if (!hit) throw new BizError(`数据源【${row.ds_name}】中没有表「${schema ? `${schema}.` : ''}${name}」`);
  return hit;
}

/** The columns of one table or view, from the catalogue (names only ever bound as values here). */
export async function introspect(app: FastifyInstance, row: DatasourceTable, ref: TableRef, req: FastifyRequest): Promise<TableCatalogue> {
  const dialect = dialectOf(row);
  let columns: CatalogueColumn[];
  if (dialect === 'postgresql') {
    const r = await app.sql.run(
      'datasource',
      row,
      `select c.column_name as name, c.data_type as data_type, c.is_nullable as nullable, c.character_maximum_length as max_len,
          c.numeric_precision as prec, c.numeric_scale as scale, c.column_default as dflt, c.is_identity as ident,
          coalesce((select true from pg_catalog.pg_index i join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
            where i.indrelid = to_regclass(format('%I.%I', c.table_schema, c.table_name)) and i.indisprimary and a.attname = c.column_name limit 1), false) as pk,
          col_description(to_regclass(format('%I.%I', c.table_schema, c.table_name)), c.ordinal_position::int) as cmt
        from information_schema.columns c where c.table_schema = $1 and c.table_name = $2 order by c.ordinal_position`,
      [ref.schema, ref.table],
      req,
    );
    columns = r.rows.map((x) => ({
      name: String(x.name),
      dataType: String(x.data_type).toLowerCase(),
      nullable: x.nullable === 'YES',
      maxLength: num(x.max_len),
      precision: num(x.prec),
      scale: num(x.scale),
      defaultValue: str(x.dflt),
      primaryKey: x.pk === true,
      autoIncrement: x.ident === 'YES' || /^nextval\(/i.test(String(x.dflt ?? '')),
      comment: commentOf(x.cmt),
    }));
  } else if (dialect === 'sqlite') {
    // pragma functions are closed to typed SQL (sqlite-guard.ts): the catalogue is read as server-composed SQL
    const [r] = await app.sql.transaction('datasource', row, [{ sql: 'select name, type, "notnull" as nn, dflt_value as dflt, pk from pragma_table_info(?)', params: [ref.table] }], req);
    const keyCount = r.rows.filter((x) => Number(x.pk) > 0).length;
    columns = r.rows.map((x) => {
      const type = String(x.type ?? '').toLowerCase();
      const m = /\((\d+)(?:\s*,\s*(\d+))?\)/.exec(type);
      const base = type.replace(/\(.*$/, '').trim();
      const isNumeric = /^(numeric|decimal)/.test(base);
      const pk = Number(x.pk) > 0;
      return {
        name: String(x.name),
        dataType: base === 'tinyint' && m?.[1] === '1' ? 'tinyint(1)' : base,
        nullable: Number(x.nn) === 0 && !pk,
        maxLength: !isNumeric && m ? Number(m[1]) : null,
        precision: isNumeric && m ? Number(m[1]) : null,
        scale: isNumeric && m ? Number(m[2] ?? 0) : null,
        defaultValue: str(x.dflt),
        primaryKey: pk,
        // an INTEGER PRIMARY KEY is the rowid: SQLite fills it
        autoIncrement: pk && keyCount === 1 && base === 'integer',
      };
    });
  } else {
    const r = await app.sql.run(
      'datasource',
      row,
      `select column_name as name, column_type as column_type, data_type as data_type, is_nullable as nullable, character_maximum_length as max_len,
          numeric_precision as prec, numeric_scale as scale, column_default as dflt, column_key as ckey, extra as extra, column_comment as cmt
        from information_schema.columns where table_schema = database() and table_name = ? order by ordinal_position`,
      [ref.table],
      req,
    );
    columns = r.rows.map((x) => {
      const columnType = String(x.column_type ?? x.data_type).toLowerCase();
      const dflt = str(x.dflt);
      return {
        name: String(x.name),
        dataType: columnType === 'tinyint(1)' ? 'tinyint(1)' : `${String(x.data_type).toLowerCase()}${/unsigned/.test(columnType) ? ' unsigned' : ''}`,
        nullable: x.nullable === 'YES',
        maxLength: num(x.max_len),
        precision: num(x.prec),
        scale: num(x.scale),
        // MariaDB writes a missing default as the text NULL
        defaultValue: dflt === null || dflt.toUpperCase() === 'NULL' ? null : dflt,
        primaryKey: x.ckey === 'PRI',
        autoIncrement: /auto_increment/i.test(String(x.extra ?? '')),
        comment: commentOf(x.cmt),
      };
    });
  }
  if (!columns.length) throw new BizError(`无法读取表「${ref.name}」的列（表不存在或没有权限）`);
  if (ref.kind === 'table') {
    for (const fk of await foreignKeys(app, row, ref, 'out', req)) {
      const c = columns.find((x) => x.name === fk.column);
      if (c) c.references = fk.target;
    }
  }
  return { dialect, schema: ref.schema, table: ref.table, kind: ref.kind, columns };
}

/** A single-column foreign key as the catalogue holds it: `column` of `table` references `target`. */
export interface ForeignKey {
  schema: string | null;
  table: string;
  column: string;
  target: ForeignKeyTarget;
}

/**
 * The single-column foreign keys of a table: those it declares ('out': its columns referencing others) or those
 * declared on it ('in': other tables' columns referencing it, the detail tables a page may hold). Keys of several
 * columns are left out (a page edits one column at a time).
 */
export async function foreignKeys(app: FastifyInstance, row: DatasourceTable, ref: TableRef, dir: 'out' | 'in', req: FastifyRequest): Promise<ForeignKey[]> {
  const dialect = dialectOf(row);
  let rows: Array<Record<string, unknown>>;
  if (dialect === 'postgresql') {
    const side = dir === 'out' ? 'k.conrelid' : 'k.confrelid';
    rows = (
      await app.sql.run(
        'datasource',
        row,
        `select n.nspname as s, c.relname as t, a.attname as col, nf.nspname as rs, cf.relname as rt, af.attname as rcol
          from pg_catalog.pg_constraint k
          join pg_catalog.pg_class c on c.oid = k.conrelid join pg_catalog.pg_namespace n on n.oid = c.relnamespace
          join pg_catalog.pg_class cf on cf.oid = k.confrelid join pg_catalog.pg_namespace nf on nf.oid = cf.relnamespace
          join pg_catalog.pg_attribute a on a.attrelid = k.conrelid and a.attnum = k.conkey[1]
          join pg_catalog.pg_attribute af on af.attrelid = k.confrelid and af.attnum = k.confkey[1]
          where k.contype = 'f' and array_length(k.conkey, 1) = 1 and ${side} = to_regclass(format('%I.%I', $1::text, $2::text))
          order by n.nspname, c.relname, a.attnum`,
        [ref.schema, ref.table],
        req,
      )
    ).rows;
  } else if (dialect === 'sqlite') {
    // pragma functions are closed to typed SQL (sqlite-guard.ts): read as server-composed SQL; "to" empty = the key
    const text =
      dir === 'out'
        ? `select ? as t, f."from" as col, f."table" as rt, f."to" as rcol, f.id as fid, (select count(*) from pragma_foreign_key_list(?) g where g.id = f.id) as n from pragma_foreign_key_list(?) f`
        : `select m.name as t, f."from" as col, f."table" as rt, f."to" as rcol, f.id as fid, (select count(*) from pragma_foreign_key_list(m.name) g where g.id = f.id) as n
            from sqlite_master m join pragma_foreign_key_list(m.name) f where m.type = 'table' and f."table" = ? order by m.name`;
    const [r] = await app.sql.transaction('datasource', row, [{ sql: text, params: dir === 'out' ? [ref.table, ref.table, ref.table] : [ref.table] }], req);
    rows = r.rows.filter((x) => Number(x.n) === 1);
    for (const x of rows) {
      if (x.rcol === null || x.rcol === undefined || x.rcol === '') {
        // the referenced table's primary key
        const [k] = await app.sql.transaction('datasource', row, [{ sql: 'select name from pragma_table_info(?) where pk > 0', params: [String(x.rt)] }], req);
        x.rcol = k.rows.length === 1 ? k.rows[0].name : null;
      }
    }
    rows = rows.filter((x) => x.rcol);
  } else {
    const side = dir === 'out' ? 'k.table_name' : 'k.referenced_table_name';
    rows = (
      await app.sql.run(
        'datasource',
        row,
        `select k.table_name as t, k.column_name as col, k.referenced_table_name as rt, k.referenced_column_name as rcol
          from information_schema.key_column_usage k
          where k.table_schema = database() and k.referenced_table_schema = database() and k.referenced_table_name is not null and ${side} = ?
            and (select count(*) from information_schema.key_column_usage o where o.constraint_schema = k.constraint_schema and o.constraint_name = k.constraint_name and o.table_name = k.table_name) = 1
          order by k.table_name, k.ordinal_position`,
        [ref.table],
        req,
      )
    ).rows;
  }
  return rows.map((x) => ({
    schema: dialect === 'postgresql' ? String(x.s) : null,
    table: String(x.t),
    column: String(x.col),
    target: { schema: dialect === 'postgresql' ? String(x.rs) : null, table: String(x.rt), column: String(x.rcol) },
  }));
}

/** Distinct values of a text column (for a select), at most `limit`+1 so that "too many" can be told. */
export async function distinctValues(app: FastifyInstance, row: DatasourceTable, cat: TableCatalogue, column: string, limit: number, req: FastifyRequest): Promise<Array<string | number>> {
  const c = columnOf(cat, column);
  const q = new TableSql(cat);
  const r = await app.sql.run('datasource', row, `select distinct ${q.id(c.name)} as v from ${q.table()} where ${q.id(c.name)} is not null order by 1 limit ${limit + 1}`, [], req);
  return r.rows.map((x) => x.v as string | number);
}

export function columnOf(cat: TableCatalogue, name: string): CatalogueColumn {
  const c = cat.columns.find((x) => x.name === name);
  if (!c) throw new BizError(`字段「${name}」不是表「${cat.table}」的列`);
  return c;
}

/** SQL text for one table of a catalogue: identifiers quoted by the dialect, placeholders numbered as it wants. */
export class TableSql {
  /** `params`: another TableSql's, when this one writes a sub-query of its statement (a related table's) */
  constructor(
    readonly cat: TableCatalogue,
    readonly params: unknown[] = [],
  ) {}
  /** A catalogue column's name, quoted (throws for a name not in the catalogue). */
  id(name: string): string {
    if (!this.cat.columns.some((c) => c.name === name) && name !== this.cat.table && name !== this.cat.schema) throw new BizError(`字段「${name}」不是表「${this.cat.table}」的列`);
    return this.cat.dialect === 'mysql' || this.cat.dialect === 'mariadb' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
  }
  table(): string {
    return this.cat.schema && this.cat.dialect === 'postgresql' ? `${this.id(this.cat.schema)}.${this.id(this.cat.table)}` : this.id(this.cat.table);
  }
  /** A bound value's placeholder. */
  bind(v: unknown): string {
    this.params.push(v);
    return this.cat.dialect === 'postgresql' ? `$${this.params.length}` : '?';
  }
  /** lower(text of column) LIKE %value% (bound, with \ as its escape) */
  like(name: string, text: string): string {
    const col = this.cat.dialect === 'postgresql' ? `${this.id(name)}::text` : this.cat.dialect === 'sqlite' ? this.id(name) : `cast(${this.id(name)} as char)`;
    // MySQL's LIKE escapes with \ already (and '\\' would be read differently with NO_BACKSLASH_ESCAPES)
    return `lower(${col}) like ${this.bind(likePattern(text))}${this.cat.dialect === 'mysql' || this.cat.dialect === 'mariadb' ? '' : " escape '\\'"}`;
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
const dateTimeText = (d: Date) => `${dateText(d)} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;

/** A value read from the table as the page shows and edits it (numbers as numbers, dates as text, booleans). */
export function presentValue(kind: ValueKind, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return kind === 'date' ? dateText(v) : dateTimeText(v);
  if (v instanceof Uint8Array) return null;
  switch (kind) {
    case 'integer':
    case 'number': {
      const n = typeof v === 'bigint' ? Number(v) : Number(v);
      return Number.isFinite(n) && (kind === 'number' || Number.isSafeInteger(n)) ? n : String(v);
    }
    case 'boolean':
      return v === true || v === 1 || v === '1' || v === 't' || v === 'true';
    default:
      return typeof v === 'bigint' ? String(v) : typeof v === 'object' ? JSON.stringify(v) : v;
  }
}

/** A record's values as the table takes them (booleans as 1 / 0 where the column is a number). */
export function storedValue(cat: TableCatalogue, c: CatalogueColumn, v: unknown): unknown {
  if (typeof v === 'boolean' && cat.dialect !== 'postgresql') return v ? 1 : 0;
  if (v === '' && valueKindOf(c) !== 'text') return null;
  return v;
}

/** The columns a page may read and write: its catalogue's, with names a declaration can hold. */
export const usableColumns = (cat: TableCatalogue) => cat.columns.filter((c) => COLUMN_NAME_RE.test(c.name));
