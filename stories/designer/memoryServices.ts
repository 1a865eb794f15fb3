// The designer's services kept in memory, for stories: a real implementation of the contract (widgets
// created from the registry's defaults, saves stored), without a server.
import type { DesignerPage, DesignerServices } from '../../designer/editor/services';
import { createWidget, widgetCatalogue, type WidgetEntity } from '../../widgets';

export function memoryServices(widgets: WidgetEntity[] = [], page: Partial<DesignerPage> = {}): DesignerServices {
  let stored: DesignerPage = { id: '1', pageName: '示例大屏', width: 1920, height: 1080, backgroundColor: '', refreshSeconds: null, revision: 1, ...page };
  let list = widgets;
  return {
    loadPage: async () => stored,
    loadWidgets: async () => list,
    catalogue: async () => widgetCatalogue(),
    addWidget: async ({ pageId, widgetName, top, left }) => createWidget(widgetName, { pageId, top, left }),
    savePage: async (p) => (stored = { ...p, revision: p.revision + 1 }),
    saveWidgets: async (_id, next) => (list = [...next]),
  };
}

/** A few widgets placed on a 1920×1080 canvas. */
export function sampleWidgets(pageId = '1'): WidgetEntity[] {
  const title = createWidget('singleLineTitle', { pageId, id: 'demo-title', top: 40, left: 760 });
  title.widgetProps.viewProps = { ...title.widgetProps.viewProps, width: 400, text: '销售数据大屏', fontSize: 32 };
  return [
    createWidget('borderBox', { pageId, id: 'demo-border', top: 160, left: 80 }),
    createWidget('barChart', { pageId, id: 'demo-bar', top: 180, left: 100 }),
    createWidget('activeRing', { pageId, id: 'demo-ring', top: 180, left: 500 }),
    title,
  ];
}
