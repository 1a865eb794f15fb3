import type { WidgetEntity } from '../../widgets';

/** Replaces one widget's props immutably; the others keep their identity (and skip re-rendering). */
export function patchWidgetProps(list: readonly WidgetEntity[], id: string, patch: Partial<WidgetEntity['widgetProps']>): WidgetEntity[] {
  return list.map((w) => (w.id === id ? { ...w, widgetProps: { ...w.widgetProps, ...patch } } : w));
}
