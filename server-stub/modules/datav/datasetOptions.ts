// A form's choice fields whose options come from a dataset field (issue 35 §6; viewProps.optionsDataset): the options
// are read when the form is opened and again when an answer is checked, through the `datasets` platform service (the
// dataset module's answers, cached and shared, the caller's row rules applied), and put where the typed-in options
// would be. So the fill-in page and the field rules (common/fields.ts) need nothing of their own, and an answer
// naming a value the dataset does not hold is refused as any value outside the options.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BizError } from '../../core/envelope.js';
import type { DatasetOption } from '../../core/platform.js';
import type { presentWidgets } from './store.js';

type Presented = ReturnType<typeof presentWidgets>[number];

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export async function withDatasetOptions(app: FastifyInstance, widgets: Presented[], req: FastifyRequest): Promise<Presented[]> {
  return Promise.all(
    widgets.map(async (w) => {
      const view = (w.widgetProps.viewProps ?? {}) as Record<string, unknown>;
      const cfg = view.optionsDataset as Record<string, unknown> | undefined;
      const datasetId = Number(cfg?.datasetId);
      if (!cfg || !Number.isInteger(datasetId) || datasetId <= 0 || !str(cfg.valueField)) return w;
      let options: DatasetOption[] = [];
      try {
        options = await app.datasets.options({ datasetId, valueField: str(cfg.valueField), labelField: str(cfg.labelField) || null, parentField: str(cfg.parentField) || null }, req);
      } catch (err) {
        // a dataset gone or refused leaves the field without options (an answer to it is then refused), never the form
        if (!(err instanceof BizError)) throw err;
        req.log.warn({ err: err.message, datasetId }, 'form options from a dataset failed');
      }
      return { ...w, widgetProps: { ...w.widgetProps, viewProps: { ...view, options, dict: '' } } };
    }),
  );
}
