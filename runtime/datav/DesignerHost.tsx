// A designer inside the console: the page id from the route, the HTTP services of its kind, and Back closing
// the tab and returning to (a reloaded) list.
import { useMemo } from 'react';
import { useLocation } from 'react-router-dom';
import { Designer } from '../../designer/Designer';
import { idParam, useLeave } from '../shell/leave';
import { designerServices, type DesignKind } from './services';

const CONFIG = {
  screen: { kind: 'screen', noun: '大屏', list: '/datav/screen', previewUrl: (id: string) => `/datav/screen/preview?pageId=${id}` },
  form: { kind: 'form', noun: '表单', list: '/datav/form', previewUrl: (id: string) => `/datav/form/preview?pageId=${id}` },
} as const;

export function DesignerHost({ kind }: { kind: DesignKind }) {
  const { search } = useLocation();
  // spec: the form designer's id is also read as formId in one variant
  const id = idParam(search, 'pageId') ?? idParam(search, 'formId');
  const services = useMemo(() => designerServices(kind), [kind]);
  const config = CONFIG[kind];
  // the designer asks about unsaved edits itself (是否要返回？)
  const leave = useLeave(config.list, false);
  return <Designer key={id ?? 'none'} pageId={id ? String(id) : null} services={services} config={config} onBack={() => leave({ force: true })} />;
}
