// Images uploaded while filling in a form are stored at once (the fill-in shows them), but only a submitted entry
// keeps them. The upload is recorded (jimu_form_upload) and so is every entry's use of it (jimu_form_entry_image,
// written at submit, removed with the entry or its form). Once a day has passed, an upload no entry names (a
// fill-in abandoned, an entry deleted) is removed, file and record, by a sweep every hour; a day is longer than
// anyone keeps a form open. Images put in any bucket through the image list are never the sweep's.
import type { FastifyInstance } from 'fastify';
import { now } from '../../store/columns.js';

export const FORM_IMAGE_SWEEP = { everyMs: 60 * 60_000, keepMs: 24 * 60 * 60_000, batch: 500 } as const;

/** Removes fill-in uploads stored before `before` that no entry names; answers how many went. */
export async function sweepFormImages(app: FastifyInstance, before: Date, batch: number = FORM_IMAGE_SWEEP.batch): Promise<number> {
  const { db } = app.ctx;
  // records of uploads whose image the image list has deleted meanwhile
  await db
    .deleteFrom('jimu_form_upload')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('file_image').select('file_image.id').whereRef('file_image.id', '=', 'jimu_form_upload.file_image_id'))))
    .execute();
  let removed = 0;
  // by id from the last one seen, so an image that cannot be removed now does not hold up the others
  for (let after = 0; ; ) {
    const rows = await db
      .selectFrom('jimu_form_upload as u')
      .innerJoin('file_image as f', 'f.id', 'u.file_image_id')
      .select(['u.file_image_id as id', 'f.bucket_name as bucket', 'f.file_key as key'])
      .where('u.create_time', '<', now(before))
      .where('u.file_image_id', '>', after)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('jimu_form_entry_image as c').select('c.entry_id').whereRef('c.file_image_id', '=', 'u.file_image_id'))))
      .orderBy('u.file_image_id')
      .limit(batch)
      .execute();
    for (const img of rows) {
      after = img.id;
      try {
        // the file first: a record goes only with its file, so a file is never left without one
        await app.uploads.remove(img.bucket, img.key);
      } catch (err) {
        app.ctx.log.warn({ err: String(err), image: img.id }, 'form image not removed; tried again next sweep');
        continue;
      }
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('file_image').where('id', '=', img.id).execute();
        await trx.deleteFrom('jimu_form_upload').where('file_image_id', '=', img.id).execute();
      });
      removed++;
    }
    if (rows.length < batch) return removed;
  }
}

/** Runs the sweep every hour while the server runs (and once a minute after it starts), never two at once. */
export function scheduleFormImageSweep(app: FastifyInstance): void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const n = await sweepFormImages(app, new Date(Date.now() - FORM_IMAGE_SWEEP.keepMs));
      if (n) app.ctx.log.info({ removed: n }, 'form images no entry names removed');
    } catch (err) {
      app.ctx.log.warn({ err: String(err) }, 'form image sweep failed');
    } finally {
      running = false;
    }
  };
  const first = setTimeout(run, 60_000);
  const timer = setInterval(run, FORM_IMAGE_SWEEP.everyMs);
  first.unref();
  timer.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(timer);
  });
}
