// FTP and ETL servers (spec part 1 §2 "FTP server list", "ETL server list", §3, §7): one table, one set of
// routes built by remotePlugin(), told apart by `kind`. Passwords: encrypted at rest, '******' out.
import type { FastifyInstance } from 'fastify';
import type { ServerModule } from '../../core/module.js';
import { BizError, ok } from '../../core/envelope.js';
import { bodySchemaOf, requirePage } from '../../core/declarations.js';
import { openIncoming, targetSecret, type SecretBinding } from '../../core/secrets.js';
import { declareTable, listPageRoutes, type StoredRow, type TableRow, timestamps } from '../../core/tables.js';
import { REMOTE_TEST_SECONDS, answerConnectionTest, type ConnectTestOptions } from '../../connectors/errors.js';

export const TABLE = 'remote_server';

export const remoteServers = declareTable({
  name: TABLE,
  migration: '20261122_13_remote_server',
  columns: {
    id: { type: 'id' },
    kind: { type: 'varchar(10)', notNull: true },
    envType: { type: 'varchar(20)', notNull: true },
    nodeCode: { type: 'varchar(50)' },
    nodeName: { type: 'varchar(100)', notNull: true },
    ip: { type: 'varchar(100)', notNull: true },
    port: { type: 'integer', notNull: true },
    username: { type: 'varchar(100)' },
    password: { type: 'text' },
    status: { type: 'integer', notNull: true, default: 1 },
    rootPath: { type: 'varchar(255)' },
    maxTotal: { type: 'integer' },
    maxIdle: { type: 'integer' },
    minIdle: { type: 'integer' },
    ...timestamps,
  },
  indexes: [{ name: 'ux_remote_server_code', columns: ['kind', 'nodeCode'], unique: true }],
  duplicate: (rec) => `编码【${rec.nodeCode}】已存在`,
  scope: 'kind',
  secrets: { password: (row) => remoteBinding(row) },
});
declare module '../../store/schema.js' {
  interface Database {
    remote_server: TableRow<typeof remoteServers>;
  }
}

export const remoteMigrations = remoteServers.migrations;

/**
 * What an FTP / ETL password is bound to (core/secrets): this table, the record (null: not saved yet) and the
 * target the password is sent to (ip, port, account).
 */
export function remoteBinding(row: { id?: number | string | null; ip?: string | null; port?: number | string | null; username?: string | null }): SecretBinding {
  return remoteSecret.binding(row);
}

/** The password of an FTP / ETL server (core/secrets targetSecret, as data sources have theirs). */
const remoteSecret = targetSecret({ table: TABLE, host: 'ip', password: 'password', hostParam: { name: 'ip', maxLength: 100, title: 'IP地址' } });

type RemoteRow = StoredRow<typeof remoteServers>;

export interface RemoteOptions {
  kind: 'ftp' | 'etl';
  perm: string;
  /** the connection test of this kind: true/false, never throws (connectors/ftp, connectors/ssh) */
  test: (s: { ip: string; port: number; username: string; password: string; rootPath: string }, opts: ConnectTestOptions) => Promise<boolean>;
  /** the list of enabled servers of this kind (`${perm}:list`): its path, the columns it reads, one answer a row */
  enabled: { path: string; columns: ReadonlyArray<keyof RemoteRow & string>; answer: (row: RemoteRow) => Record<string, unknown> };
}

/** The module of one kind: /api/remote/<kind>, the secrets service; the table's migration comes with FTP's. */
export function remoteModule(o: RemoteOptions): ServerModule {
  return {
    name: o.kind,
    prefix: `/api/remote/${o.kind}`,
    service: 'platform',
    ...(o.kind === 'ftp' ? { migrations: remoteMigrations } : {}),
    needs: ['secrets'],
    plugin: remotePlugin(o),
  };
}

export function remotePlugin(o: RemoteOptions) {
  return async (app: FastifyInstance) => {
    const page = requirePage(app.ctx.schemas.pages, o.kind);
    const { secrets } = app;
    const P = (a: string) => `${o.perm}:${a}`;
    const store = listPageRoutes(app, remoteServers, {
      page: o.kind,
      notFound: '服务器不存在',
      scope: o.kind,
      secrets,
      filters: { envType: { type: ['string', 'array', 'null'], maxItems: 20, items: { type: 'string', maxLength: 20 }, title: '环境' }, status: { type: ['integer', 'array', 'null'], maxItems: 20, items: { type: 'integer' }, title: '状态' } },
      beforeSave: (rec) => {
        // an ETL server's code is optional: none is null, so any number of servers may go without one
        if (typeof rec.nodeCode === 'string' && !rec.nodeCode.trim()) rec.nodeCode = null;
      },
    });

    // Body: the server as in the dialog. A masked / missing password with an id uses the stored one.
    app.post<{ Body: any }>(
      '/validateConn',
      { config: { perm: P('test') }, schema: { body: bodySchemaOf(page, { id: { type: ['integer', 'null'], title: '编号' } }) } },
      async (req) => {
        const body = (req.body ?? {}) as any;
        const stored = body.id ? await store.get(body.id) : undefined;
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
          password = remoteSecret.openStored(secrets, stored);
        }
        const settings = { ip: String(ip), port, username, password, rootPath: String(body.rootPath ?? stored?.root_path ?? '/') || '/' };
        return answerConnectionTest(req.log, { ip: settings.ip, port }, (onError) => o.test(settings, { timeout: REMOTE_TEST_SECONDS, onError }));
      },
    );

    // The encrypt button: bound to the record being edited and the target typed in the dialog (ip, port,
    // username). FTP and ETL servers share the table, so either route's value fits either kind of new server.
    remoteSecret.encryptRoute(app, secrets, o.perm);

    app.get(o.enabled.path, { config: { perm: P('list') } }, async () => {
      const rows = await app.ctx.db.selectFrom(TABLE).select([...o.enabled.columns]).where('kind', '=', o.kind).where('status', '=', 1).orderBy('node_name').execute();
      return ok(rows.map((r) => o.enabled.answer(r as RemoteRow)));
    });
  };
}
