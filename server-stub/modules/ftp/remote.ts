// FTP and ETL servers (spec part 1 §2 "FTP server list", "ETL server list", §3, §7): one table, one set of
// routes built by remotePlugin(), told apart by `kind`. Passwords: encrypted at rest, '******' out.
import { assertPermission } from '../../core/auth.js';
import type { Generated } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema } from '../../core/list.js';
import {
  apiToRow,
  bodySchemaOf,
  checkBody,
  deleteRow,
  getRow,
  idQuery,
  listTable,
  migration,
  requirePage,
  rowToApi,
  saveRow,
  searchFieldsOf,
  sortableFieldsOf,
  type TableSpec,
} from '../../core/declarations.js';
import { MASK, encryptRoute, openIncoming, type SecretBinding } from '../../core/secrets.js';
import { servicesOf } from '../datasource/shared.js';
import { idColumn } from '../../store/columns.js';
import { connectionTestMessage, type ConnectFailureReporter } from '../../connectors/errors.js';

export interface RemoteServerTable {
  id: Generated<number>;
  kind: string;
  env_type: string;
  node_code: string | null;
  node_name: string;
  ip: string;
  port: number;
  username: string | null;
  password: string | null;
  status: number;
  root_path: string | null;
  max_total: number | null;
  max_idle: number | null;
  min_idle: number | null;
  create_time: string;
  update_time: string;
}
declare module '../../store/schema.js' {
  interface Database {
    remote_server: RemoteServerTable;
  }
}

export const TABLE = 'remote_server';
export const FIELDS = {
  envType: 'env_type',
  nodeCode: 'node_code',
  nodeName: 'node_name',
  ip: 'ip',
  port: 'port',
  username: 'username',
  password: 'password',
  status: 'status',
  rootPath: 'root_path',
  maxTotal: 'max_total',
  maxIdle: 'max_idle',
  minIdle: 'min_idle',
  createTime: 'create_time',
  updateTime: 'update_time',
};

export const remoteMigrations = {
  '20261122_13_remote_server': migration(async (db, dialect) => {
    await idColumn(db.schema.createTable(TABLE).ifNotExists(), dialect)
      .addColumn('kind', 'varchar(10)', (c) => c.notNull())
      .addColumn('env_type', 'varchar(20)', (c) => c.notNull())
      .addColumn('node_code', 'varchar(50)')
      .addColumn('node_name', 'varchar(100)', (c) => c.notNull())
      .addColumn('ip', 'varchar(100)', (c) => c.notNull())
      .addColumn('port', 'integer', (c) => c.notNull())
      .addColumn('username', 'varchar(100)')
      .addColumn('password', 'text')
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('root_path', 'varchar(255)')
      .addColumn('max_total', 'integer')
      .addColumn('max_idle', 'integer')
      .addColumn('min_idle', 'integer')
      .addColumn('create_time', 'varchar(19)', (c) => c.notNull())
      .addColumn('update_time', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('ux_remote_server_code').ifNotExists().unique().on(TABLE).columns(['kind', 'node_code']).execute();
  }),
};

/**
 * What an FTP / ETL password is bound to (core/secrets): this table, the record (null: not saved yet) and the
 * target the password is sent to (ip, port, account).
 */
export function remoteBinding(row: { id?: number | string | null; ip?: string | null; port?: number | string | null; username?: string | null }): SecretBinding {
  return { table: TABLE, id: row.id ?? null, host: row.ip, port: row.port, account: row.username };
}

export interface RemoteOptions {
  kind: 'ftp' | 'etl';
  perm: string;
  /** the connection test of this kind: true/false, never throws */
  test: (s: { ip: string; port: number; username: string; password: string; rootPath: string }, onError: ConnectFailureReporter) => Promise<boolean>;
  extra?: (app: FastifyInstance, spec: TableSpec) => void;
}

export function remotePlugin(o: RemoteOptions) {
  return async (app: FastifyInstance) => {
    const page = requirePage(app.ctx.schemas.pages, o.kind);
    const { db } = app.ctx;
    const { secrets } = servicesOf(app);
    const spec: TableSpec = {
      table: TABLE,
      fields: FIELDS,
      scope: { kind: o.kind },
      searchFields: searchFieldsOf(page),
      sortable: sortableFieldsOf(page),
      filters: ['envType', 'status'],
    };
    const P = (a: string) => `${o.perm}:${a}`;

    app.post<{ Body: any }>(
      '/searchList',
      { config: { perm: P('list') }, schema: { body: listQuerySchema({ envType: { type: ['string', 'array', 'null'], maxItems: 20, items: { type: 'string', maxLength: 20 }, title: '环境' }, status: { type: ['integer', 'array', 'null'], maxItems: 20, items: { type: 'integer' }, title: '状态' } }) } },
      async (req) => {
        const res = await listTable(db, spec, (req.body ?? {}) as any);
        return ok({ records: res.records.map((r: any) => ({ ...r, password: r.password ? MASK : '' })), total: res.total });
      },
    );

    const saveSchema = { body: bodySchemaOf(page, { id: { type: ['integer', 'null'], title: '编号' } }) };
    app.post<{ Body: any }>('/save', { config: { perm: P('list') }, schema: saveSchema }, async (req) => {
      const body: Record<string, any> = { ...(req.body as any) };
      const id = body.id ?? undefined;
      assertPermission(req, P(id ? 'edit' : 'add'));
      const stored = id ? await getRow(db, spec, id) : undefined;
      if (id && !stored) throw new BizError('服务器不存在');
      if (!stored && body.password === MASK) body.password = '';
      const rec = checkBody(page, body, { dicts: app.ctx.schemas.dicts, applyDefaults: !stored });
      if (stored) {
        for (const f of page.dialog?.lockedInEdit ?? []) if (f in FIELDS) rec[f] = rowToApi(spec, stored)[f];
      }
      // an ETL server's code is optional: none is null, so any number of servers may go without one
      if (typeof rec.nodeCode === 'string' && !rec.nodeCode.trim()) rec.nodeCode = null;
      delete rec.password; // written below, sealed for the record as saved
      const savedId = await db.transaction().execute(async (trx) => {
        const id = await saveRow(trx, spec, stored, apiToRow(spec, rec), { duplicate: `编码【${rec.nodeCode}】已存在`, insertOnly: { status: 1, password: null } });
        const saved = (await getRow(trx, spec, id))!;
        const next = remoteBinding(saved);
        let value: string | null;
        try {
          // what came in was made for this request's record: the stored one, or "new" (its id is only known now)
          const asSent = { ...next, id: stored ? saved.id : null };
          const d = secrets.resolveForSave(body.password, stored ? { value: stored.password, binding: remoteBinding(stored) } : undefined, asSent);
          value = 'plain' in d ? secrets.encrypt(d.plain, next) : d.store;
        } catch (err) {
          throw new BizError((err as Error).message); // rolls the save back
        }
        if (value !== (saved.password ?? null)) await trx.updateTable(TABLE).set({ password: value }).where('id', '=', id).execute();
        return id;
      });
      return ok(savedId, '保存成功');
    });

    app.post<{ Querystring: { id: number } }>('/delete', { config: { perm: P('remove') }, schema: { querystring: idQuery } }, async (req) => {
      if (!(await deleteRow(db, spec, req.query.id))) throw new BizError('服务器不存在');
      return ok(null, '删除成功');
    });

    // Body: the server as in the dialog. A masked / missing password with an id uses the stored one.
    app.post<{ Body: any }>(
      '/validateConn',
      { config: { perm: P('test') }, schema: { body: bodySchemaOf(page, { id: { type: ['integer', 'null'], title: '编号' } }) } },
      async (req) => {
        const body = (req.body ?? {}) as any;
        const stored = body.id ? await getRow(db, spec, body.id) : undefined;
        if (body.id && !stored) throw new BizError('服务器不存在');
        const ip = body.ip ?? stored?.ip;
        if (!ip) throw new BizError('请输入IP地址');
        if (!/^[A-Za-z0-9.:_-]+$/.test(String(ip))) throw new BizError('IP地址格式不正确');
        const port = Number(body.port ?? stored?.port ?? (o.kind === 'ftp' ? 21 : 22));
        const username = String(body.username ?? stored?.username ?? '');
        // a ciphertext in the body opens only for this record (or a new one) and this very target
        const typed = openIncoming(secrets, body.password, remoteBinding({ id: stored?.id ?? null, ip: String(ip), port, username }));
        let password = typed ?? '';
        if (typed === undefined && stored) {
          // the stored password is only ever sent to the stored host and account
          const same = String(ip) === stored.ip && port === stored.port && username === String(stored.username ?? '');
          if (!same) throw new BizError('修改了IP地址、端口或账号，请重新输入密码');
          password = secrets.openStored(stored.password, remoteBinding(stored)) ?? '';
        }
        const settings = { ip: String(ip), port, username, password, rootPath: String(body.rootPath ?? stored?.root_path ?? '/') || '/' };
        let reason = '';
        const good = await o.test(settings, (detail, why) => {
          reason = why;
          req.log.warn({ ip: settings.ip, port, reason: detail }, 'connection test failed');
        });
        // data false as the spec has it; the message says why (连接失败：账号或密码错误)
        return ok(good, connectionTestMessage(good, reason));
      },
    );

    // The encrypt button: bound to the record being edited and the target typed in the dialog (ip, port,
    // username). FTP and ETL servers share the table, so either route's value fits either kind of new server.
    encryptRoute(app, {
      secrets,
      perm: P('list'),
      editPerms: [P('add'), P('edit')],
      host: { name: 'ip', maxLength: 100, title: 'IP地址' },
      binding: (t) => remoteBinding({ id: t.id, ip: t.host, port: t.port, username: t.username }),
    });

    o.extra?.(app, spec);
  };
}
