// Data sources and models are one entity (spec §3 "Data source / model"): one table (core/datasources.ts, read
// by the `sql` service for the other modules), one set of routes built by connectionPlugin(), told apart by
// `kind`. Passwords are stored encrypted (core/secrets), answered as '******'. Pools, the target policy and the
// callers' quota are the platform's `sql` service, the key the `secrets` service (core/platform.ts, app.sql /
// app.secrets): pools rebuilt on edit, closed on delete.
import { assertPermission } from '../../core/auth.js';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import { listQuerySchema } from '../../core/list.js';
import { DATASOURCE_TABLE, connectionSettings, datasourceSecret, datasources } from '../../core/datasources.js';
import { bodySchemaOf, checkBody, idQuery, requirePage } from '../../core/declarations.js';
import { MASK } from '../../core/secrets.js';
import { SqlConnectorError, checkSqlTarget, parseProperties, testConnection, type SqlParams } from '../../connectors/sql/index.js';
import { answerConnectionTest } from '../../connectors/errors.js';

const TABLE = DATASOURCE_TABLE;
const MMSG = { pickSource: '请选择数据源' };

const DEFAULTS = { maxWaitTime: 120, maxActive: 20, queryTimeout: 300, status: 1 };

export const datasourceMigrations = datasources.migrations;

/** Upper bounds of the pool settings: seconds for the waits, connections for the pool. */
const UPPER = { maxWaitTime: 600, maxActive: 200, queryTimeout: 3600 } as const;

export interface ConnectionModuleOptions {
  kind: 'datasource' | 'model';
  pageId: string;
  /** permission prefix, e.g. 'gemini:datasource' */
  perm: string;
  /** also register POST /info/add (insert only) and POST /execute */
  modelRoutes?: boolean;
  /** what the messages call one record: 数据源 / 模型 */
  noun: string;
}

export function connectionPlugin(o: ConnectionModuleOptions) {
  return async (app: FastifyInstance) => {
    const page = requirePage(app.ctx.schemas.pages, o.pageId);
    const { db } = app.ctx;
    const { secrets } = app;
    const { pools, policy } = app.sql;
    const store = datasources.on(db, { page, scope: o.kind, filters: ['dbType', 'status'], secrets });
    const P = (a: string) => `${o.perm}:${a}`;
    const sqliteRoot = (): string => `${app.ctx.config.dataDir}/sqlite`;

    app.post<{ Body: any }>(
      '/search',
      { config: { perm: P('list') }, schema: { body: listQuerySchema({ dbType: { type: ['string', 'array', 'null'], maxItems: 20, items: { type: 'string', maxLength: 20 }, title: '数据库类型' }, status: { type: ['integer', 'array', 'null'], maxItems: 20, items: { type: 'integer' }, title: '是否有效' }, dsName: { type: ['string', 'null'], maxLength: 100 }, modelName: { type: ['string', 'null'], maxLength: 100 } }) } },
      async (req) => {
        const body = { ...((req.body ?? {}) as Record<string, any>) };
        // the spec's list query also carries dsName (modelName): a name search when no search text is given
        if (!body.search && typeof (body.dsName ?? body.modelName) === 'string') body.search = String(body.dsName ?? body.modelName).slice(0, 100);
        delete body.dsName;
        return ok(await store.list(body));
      },
    );

    app.get<{ Querystring: { id: number } }>('/info/get', { config: { perm: P('list') }, schema: { querystring: idQuery } }, async (req) => {
      const row = await store.get(req.query.id);
      if (!row) throw new BizError(`${o.noun}不存在`);
      return ok(datasources.answer(row));
    });

    const save = async (req: FastifyRequest<{ Body: any }>, mode: 'save' | 'add') => {
      const body: Record<string, any> = { ...(req.body ?? {}) };
      if (body.dsName == null && typeof body.modelName === 'string') body.dsName = body.modelName;
      const id = mode === 'save' && body.id != null && body.id !== '' ? Number(body.id) : undefined;
      if (mode === 'add' && body.id != null && body.id !== '') throw new BizError('新增时不能指定编号');
      if (id !== undefined && !(Number.isInteger(id) && id > 0)) throw new BizError('编号不合法');
      assertPermission(req, P(id ? 'edit' : 'add'));
      const stored = id ? await store.get(id) : undefined;
      if (id && !stored) throw new BizError(`${o.noun}不存在`);
      const isSqlite = String(body.dbType ?? stored?.db_type ?? '').toLowerCase() === 'sqlite';
      const skip = isSqlite ? ['hostName', 'port', 'username', 'pwd'] : [];
      if (stored?.pwd && (body.pwd === MASK || body.pwd === undefined)) skip.push('pwd');
      if (!stored && body.pwd === MASK) body.pwd = ''; // a copy without a password typed in
      const rec = checkBody(page, body, { dicts: await app.dicts.current(), applyDefaults: !stored, skipRequired: skip });
      if (body.status !== undefined && body.status !== null) {
        if (body.status !== 0 && body.status !== 1) throw new BizError('是否有效取值不合法');
        rec.status = body.status;
      }
      for (const k of ['maxWaitTime', 'maxActive', 'queryTimeout'] as const) {
        const label = k === 'maxActive' ? '最大连接数' : k === 'maxWaitTime' ? '连接等待时间' : '查询超时';
        if (rec[k] === null || rec[k] === undefined) rec[k] = stored ? undefined : DEFAULTS[k];
        else if (typeof rec[k] === 'number' && (rec[k] as number) < 1) throw new BizError(`${label}不能小于1`);
        // a statement, a wait or a pool without end holds the data source's process and slots without end
        else if (typeof rec[k] === 'number' && (rec[k] as number) > UPPER[k]) throw new BizError(`${label}不能大于${UPPER[k]}`);
      }
      if (stored) {
        // locked in edit: name and type stay what they were
        rec.dsName = stored.ds_name;
        rec.dbType = stored.db_type;
      }
      try {
        // control characters in the parameters; a socket path, a refused address or the platform's own store
        // as the target (connectors/target.ts): no data source
        if (typeof rec.properties === 'string') parseProperties(rec.properties);
        if (!isSqlite) {
          const target = { dbType: String(rec.dbType), hostName: (rec.hostName ?? stored?.host_name) as string, port: Number(rec.port ?? stored?.port), dbName: (rec.dbName ?? stored?.db_name) as string };
          await checkSqlTarget(target, policy, true);
        }
      } catch (err) {
        throw err instanceof SqlConnectorError ? new BizError(err.message) : err;
      }
      delete rec.modelName; // an alias of dsName: the name column is written from dsName only
      rec.pwd = body.pwd; // sealed by the store for the record as saved, in the save's transaction
      const savedId = await store.save(stored, rec);
      if (stored) await pools.invalidate(`${o.kind}:${stored.id}`); // the pool is rebuilt with the new settings
      return ok(savedId, '保存成功');
    };
    const saveSchema = { body: bodySchemaOf(page, { id: { type: ['integer', 'string', 'null'], title: '编号' }, status: { type: ['integer', 'null'], title: '是否有效' }, modelName: { type: ['string', 'null'], maxLength: 100 } }) };
    app.post<{ Body: any }>('/info/save', { config: { perm: P('list') }, schema: saveSchema }, (req) => save(req, 'save'));
    if (o.modelRoutes) app.post<{ Body: any }>('/info/add', { config: { perm: P('add') }, schema: saveSchema }, (req) => save(req, 'add'));

    app.get<{ Querystring: { id: number } }>('/delete', { config: { perm: P('remove') }, schema: { querystring: idQuery } }, async (req) => {
      const okDel = await store.remove(req.query.id);
      await pools.invalidate(`${o.kind}:${req.query.id}`);
      if (!okDel) throw new BizError(`${o.noun}不存在`);
      return ok(null, '删除成功');
    });

    app.get<{ Querystring: { id: number } }>('/test', { config: { perm: P('test') }, schema: { querystring: idQuery } }, async (req) => {
      const row = await store.get(req.query.id);
      if (!row) throw new BizError(`${o.noun}不存在`);
      const settings = connectionSettings(row, secrets, sqliteRoot());
      return answerConnectionTest(req.log, { id: row.id }, (onError) => testConnection(settings, { policy, onError }));
    });

    // The encrypt button: bound to the record being edited and the target typed in the dialog (hostName, port, username).
    datasourceSecret.encryptRoute(app, secrets, o.perm);

    app.get('/select', { config: { perm: P('list') } }, async () => {
      const rows = await db.selectFrom(TABLE).select(['id', 'ds_name', 'db_type']).where('kind', '=', o.kind).where('status', '=', 1).orderBy('ds_name').execute();
      return ok(rows.map((r) => ({ id: r.id, text: r.ds_name, value: r.ds_name, label: r.ds_name, dsName: r.ds_name, dbType: r.db_type })));
    });

    if (o.modelRoutes) {
      app.post<{ Body: { id?: number; dsName?: string; sql: string; params?: SqlParams } }>(
        '/execute',
        {
          config: { perm: P('test') },
          schema: {
            body: {
              type: 'object',
              required: ['sql'],
              properties: {
                id: { type: ['integer', 'null'], title: '编号' },
                dsName: { type: ['string', 'null'], maxLength: 100, title: '名称' },
                sql: { type: 'string', minLength: 1, maxLength: 100000, title: 'SQL脚本' },
                params: { type: ['object', 'array', 'null'], title: '参数' },
              },
            },
          },
        },
        async (req) => {
          const { id, dsName, sql, params } = req.body;
          if (!id && !dsName) throw new BizError(MMSG.pickSource);
          const row = await app.sql.source(o.kind, { id: id ?? undefined, dsName: dsName ?? undefined });
          if (!row) throw new BizError(`${o.noun}不存在`);
          return ok(await app.sql.run(o.kind, row, sql, params, req));
        },
      );
    }
  };
}
