// API keys for calling published APIs (ours; DESIGN §7): created on a small screen, shown once, kept only as
// a SHA-256 hash (a key is 32 random bytes, so a fast hash is enough: there is nothing to guess), revocable.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { BizError, ok } from '../../core/envelope.js';
import { idQuery, likePattern } from '../../core/declarations.js';
import { listQuerySchema, pageOf } from '../../core/list.js';
import { now } from '../../store/columns.js';
import { sql } from 'kysely';
import { PERM } from './perms.js';
import { tableTopic } from '../../core/invalidation.js';
import { periodicFlush } from './buffered.js';

const PREFIX = 'dsk_';
const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** A live key as a published call knows it. */
export interface LiveKey {
  id: number;
  last_used_time: string | null;
}

/**
 * The live key a caller sent, or undefined (unknown, malformed or revoked). Live keys are held in memory per
 * hash (issue 36): a revocation, like any write to gemini_api_key but its last use, is published to every
 * instance before the revoking call answers (store/watch.ts, core/invalidation.ts). Unknown keys are not held.
 * A key's last use (to the minute) is buffered and written with the call statistics (buffered.ts), not by a call.
 */
export function keyFinder(app: FastifyInstance): (key: string) => Promise<LiveKey | undefined> {
  const { db, invalidation } = app.ctx;
  const held = invalidation.memo<string, LiveKey | null>([tableTopic('gemini_api_key')], { max: 10_000 });
  let used = new Map<number, string>();
  periodicFlush(app, 'api key last use', async () => {
    const batch = used;
    used = new Map();
    for (const [id, time] of batch) await db.updateTable('gemini_api_key').set({ last_used_time: time }).where('id', '=', id).execute();
  });
  return async (key) => {
    if (key.length > 200 || !key.startsWith(PREFIX)) return undefined;
    const h = hashOf(key);
    const row = await held.get(
      h,
      async () => (await db.selectFrom('gemini_api_key').select(['id', 'last_used_time']).where('key_hash', '=', h).where('revoked', '=', 0).executeTakeFirst()) ?? null,
      (r) => r != null,
    );
    if (!row) return undefined;
    // last use to the minute: one write a minute per key at most
    const time = now();
    if (!row.last_used_time?.startsWith(time.slice(0, 16))) {
      row.last_used_time = time;
      used.set(row.id, time);
    }
    return row;
  };
}

const SORT: Record<string, string> = { keyName: 'key_name', createTime: 'create_time', lastUsedTime: 'last_used_time' };

export function keyRoutes(app: FastifyInstance) {
  const { db } = app.ctx;
  const present = (r: { id: number; key_name: string; key_prefix: string; create_user: string; create_time: string; revoked: number; last_used_time: string | null }) => ({
    id: r.id,
    keyName: r.key_name,
    keyPrefix: `${r.key_prefix}…`,
    createUser: r.create_user,
    createTime: r.create_time,
    revoked: r.revoked,
    lastUsedTime: r.last_used_time,
  });

  app.post<{ Body: Record<string, any> }>('/key/search', { config: { perm: PERM.keyList }, schema: { body: listQuerySchema({ revoked: { type: ['integer', 'array', 'null'], maxItems: 2, items: { type: 'integer' }, title: '已吊销' } }) } }, async (req) => {
    const q = req.body ?? {};
    const filter = (qb: any) => {
      const text = typeof q.search === 'string' ? q.search.trim() : '';
      if (text) qb = qb.where(sql<boolean>`lower(key_name) like ${likePattern(text.toLowerCase())} escape '\\'`);
      const revoked = q.revoked == null ? [] : [q.revoked].flat();
      if (revoked.length) qb = qb.where('revoked', 'in', revoked);
      return qb;
    };
    const win = pageOf(q, SORT);
    const total = await filter(db.selectFrom('gemini_api_key').select((eb: any) => eb.fn.countAll().as('n'))).executeTakeFirst();
    let rows = filter(db.selectFrom('gemini_api_key').selectAll());
    rows = win.order ? rows.orderBy(win.order.column, win.order.dir).orderBy('id', 'desc') : rows.orderBy('id', 'desc');
    return ok({ records: (await rows.limit(win.limit).offset(win.offset).execute()).map(present), total: Number(total?.n ?? 0) });
  });

  app.post<{ Body: { keyName?: string | null } }>(
    '/key/add',
    { config: { perm: PERM.keyAdd }, schema: { body: { type: 'object', properties: { keyName: { type: ['string', 'null'], maxLength: 200, title: '名称' } } } } },
    async (req) => {
      const name = (req.body.keyName ?? '').trim();
      if (!name) throw new BizError('请输入名称');
      if ([...name].length > 50) throw new BizError('名称不能超过50个字符');
      const key = PREFIX + randomBytes(32).toString('base64url');
      const row = await db
        .insertInto('gemini_api_key')
        .values({ key_name: name, key_prefix: key.slice(0, PREFIX.length + 6), key_hash: hashOf(key), create_user: req.user!.username, create_time: now(), revoked: 0, last_used_time: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      // the only time the key is ever shown
      return ok({ id: Number(row.id), keyName: name, apiKey: key }, '添加成功，请立即复制保存，API Key 只显示这一次');
    },
  );

  app.get<{ Querystring: { id: number } }>('/key/revoke', { config: { perm: PERM.keyRemove }, schema: { querystring: idQuery } }, async (req) => {
    const r = await db.updateTable('gemini_api_key').set({ revoked: 1 }).where('id', '=', req.query.id).executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new BizError('API Key 不存在');
    return ok(null, '吊销成功');
  });
}
