// Export and import (issue 9 §4, instead of the spec's 开发中 notice): export downloads the canvas and its
// widgets as JSON; import checks the file against schemas/meta/screen-export.schema.json and every widget's
// view and data props against its kind's schema, and lists the faults — or answers the new document.
import Ajv, { type ErrorObject } from 'ajv';
import meta from '../../schemas/meta/screen-export.schema.json';
import { getWidgetKind, type WidgetEntity } from '../../widgets';
import type { Doc } from '../editor/history';
import { groupFault } from '../../common/groups';
import { variablesFault, variablesOf } from '../../common/variables';
import { interactionFault } from '../../common/interaction';

export const EXPORT_FORMAT = 'dsc-designer';

const ajv = new Ajv({ allErrors: true, strict: false });
const checkFile = ajv.compile(meta);
const kindCheckers = new Map<string, ReturnType<typeof ajv.compile>>();
function checkerFor(schemaKey: string, schema: object) {
  let c = kindCheckers.get(schemaKey);
  if (!c) kindCheckers.set(schemaKey, (c = ajv.compile(schema)));
  return c;
}

const say = (prefix: string, e: ErrorObject) => `${prefix}${e.instancePath || '/'} ${e.message ?? '不合法'}`;

export function exportDoc(doc: Doc, kind: 'screen' | 'form', pageName: string): string {
  return JSON.stringify(
    {
      format: EXPORT_FORMAT,
      version: 1,
      kind,
      exportedAt: new Date().toISOString(),
      page: { pageName, ...doc.canvas },
      widgets: doc.widgets.map((w) => ({ id: w.id, widgetName: w.widgetName, widgetTitle: w.widgetTitle, icon: w.icon, widgetProps: w.widgetProps })),
    },
    null,
    2,
  );
}

export function download(text: string, fileName: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

const newId = () => globalThis.crypto?.randomUUID?.() ?? `w${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

/** The document a file describes (widgets get new ids on this page), or the list of what is wrong with it. */
export function importDoc(text: string, pageId: string): { doc: Doc } | { faults: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { faults: ['文件不是合法的 JSON'] };
  }
  if (!checkFile(data)) return { faults: (checkFile.errors ?? []).slice(0, 50).map((e) => say('文件', e)) };
  const file = data as { page: Doc['canvas']; widgets: Array<Pick<WidgetEntity, 'widgetName' | 'widgetTitle' | 'icon' | 'widgetProps'>> };
  const faults: string[] = [];
  const widgets: WidgetEntity[] = [];
  const declared = variablesOf(file.page.variables);
  file.widgets.forEach((w, i) => {
    const kind = getWidgetKind(w.widgetName);
    if (!kind) return void faults.push(`/widgets/${i} 未知部件：${w.widgetName}`);
    // clicks as the server checks them: a kind that emits them, the file's own variables, safe targets
    const ip = w.widgetProps.interactionProps;
    if (ip != null) {
      const bad = kind.catalogue.interactions ? interactionFault(ip, declared) : '此部件不支持点击交互';
      if (bad) faults.push(`/widgets/${i}/widgetProps/interactionProps ${bad}`);
    }
    const view = checkerFor(`${w.widgetName}:view`, kind.viewSchema);
    const data = checkerFor(`${w.widgetName}:ds`, kind.datasourceSchema);
    if (!view(w.widgetProps.viewProps)) faults.push(...(view.errors ?? []).map((e) => say(`/widgets/${i}/widgetProps/viewProps`, e)));
    if (!data(w.widgetProps.datasourceProps)) faults.push(...(data.errors ?? []).map((e) => say(`/widgets/${i}/widgetProps/datasourceProps`, e)));
    widgets.push({
      id: newId(),
      pageId,
      widgetName: w.widgetName,
      widgetTitle: w.widgetTitle ?? kind.catalogue.widgetTitle,
      icon: w.icon ?? kind.catalogue.icon,
      widgetProps: { ...w.widgetProps, widgetViewName: kind.widgetViewName, widgetFormName: kind.widgetFormName, selectedTab: 'view', versionProps: w.widgetProps.versionProps ?? kind.versionProps },
      isHead: false,
      isTail: false,
    });
  });
  // layer groups as the server checks them (adjacent, one name, two members at least)
  const badGroup = groupFault(file.widgets);
  if (badGroup) faults.push(badGroup);
  const badVariables = variablesFault(file.page.variables ?? null);
  if (badVariables) faults.push(badVariables);
  if (faults.length) return { faults: faults.slice(0, 50) };
  const p = file.page;
  return { doc: { canvas: { width: p.width, height: p.height, backgroundColor: p.backgroundColor ?? '', refreshSeconds: p.refreshSeconds ?? null, theme: p.theme ?? undefined, backgroundImage: p.backgroundImage ?? '', variables: variablesOf(p.variables) }, widgets } };
}
