// Images uploaded while filling in a form are stored at once (the fill-in shows them), but only a submitted entry
// keeps them. Those that no entry names once a day has passed (a fill-in abandoned, an entry deleted) are removed,
// file and record, by a sweep every hour; a day is longer than anyone keeps a form open.
import type { FastifyInstance } from 'fastify';
import { now } from '../../store/columns.js';
import { removeStoredFile } from '../image/receive.js';
import { FORM_BUCKET } from './fields.js';

export const FORM_IMAGE_SWEEP = { everyMs: 60 * 60_000, keepMs: 24 * 60 * 60_000, batch: 500 } as const;

/** Removes form images stored before `before` that no entry names; answers how many went. */
export async function sweepFormImages(app: FastifyInstance, before: Date): Promise<number> {
  const { db, config } = app.ctx;
  const old = await db
    .selectFrom('file_image')
    .select(['id', 'bucket_name', 'file_key'])
    .where('bucket_name', '=', FORM_BUCKET)
    .where('create_time', '<', now(before))
    .orderBy('id')
    .limit(FORM_IMAGE_SWEEP.batch)
    .execute();
  let removed = 0;
  for (const img of old) {
    // keys are UUIDs with an extension: no LIKE wildcard can be in them
    const named = await db.selectFrom('jimu_form_entry').select('id').where('data', 'like', `%${img.file_key}%`).limit(1).executeTakeFirst();
    if (named) continue;
    await db.deleteFrom('file_image').where('id', '=', img.id).execute();
    await removeStoredFile(config.dataDir, img.bucket_name, img.file_key);
    removed++;
  }
  return removed;
}

/** Runs the sweep every hour while the server runs (and once shortly after it starts). */
export function scheduleFormImageSweep(app: FastifyInstance): void {
  const run = () =>
    sweepFormImages(app, new Date(Date.now() - FORM_IMAGE_SWEEP.keepMs)).then(
      (n) => n && app.ctx.log.info({ removed: n }, 'form images no entry names removed'),
      (err: unknown) => app.ctx.log.warn({ err: String(err) }, 'form image sweep failed'),
    );
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, FORM_IMAGE_SWEEP.everyMs);
  first.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}
