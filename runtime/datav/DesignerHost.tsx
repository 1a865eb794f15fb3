// A designer in the console, in the whole window (its route's layout is `editor`): the page id from the route,
// the HTTP services of its kind, and Back closing its tab and returning to the console page it was opened from
// (reloaded), the list when it was opened by its address.
import { useMemo, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { Designer, type DesignerGuard } from '../../designer/Designer';
import { useLeaveGuard } from '../core/leaveGuard';
import { useSession } from '../core/session';
import { idParam, useLeave } from '../ui/leave';
import { designerServices, type DesignKind } from './services';
import { HistoryDrawer } from '../ui/history/HistoryDrawer';

const CONFIG = {
  screen: { kind: 'screen', noun: '大屏', list: '/datav/screen', previewUrl: (id: string) => `/datav/screen/preview?pageId=${id}` },
  form: { kind: 'form', noun: '表单', list: '/datav/form', previewUrl: (id: string) => `/datav/form/preview?pageId=${id}` },
} as const;

export function DesignerHost({ kind }: { kind: DesignKind }) {
  // its own address's query: the view stays mounted, hidden, while the console shows another page
  // a designer behind another tab keeps its own address (the shell's KeepAlive), so its id stays
  const { search } = useLocation();
  // spec: the form designer's id is also read as formId in one variant
  const id = idParam(search, 'pageId') ?? idParam(search, 'formId');
  const services = useMemo(() => designerServices(kind), [kind]);
  const userId = useSession().user?.id;
  const config = useMemo(() => ({ ...CONFIG[kind], user: userId === undefined ? undefined : String(userId) }), [kind, userId]);
  // Back: the designer asks about unsaved edits itself (是否要返回？); every other way out asks through the guard,
  // whose 不保存 deletes the widgets dropped since the save, so reopening shows the saved page
  const leave = useLeave(config.list, false, undefined, { origin: true });
  const [guard, setGuard] = useState<DesignerGuard | null>(null);
  useLeaveGuard(!!guard?.unsaved, { save: guard?.save, discard: guard?.discard, unload: guard?.unload });
  // 历史版本 (issue 37): a restore reads the page again (the designer is mounted afresh)
  const [historyOpen, setHistoryOpen] = useState(false);
  const [loaded, setLoaded] = useState(0);
  // what the designer holds unsaved, taken once when the drawer opens
  // eslint-disable-next-line react-hooks/exhaustive-deps -- taken at the opening only
  const editing = useMemo(() => (historyOpen && guard?.unsaved ? guard.snapshot() : undefined), [historyOpen]);
  return (
    <>
      <Designer key={`${id ?? 'none'}-${loaded}`} pageId={id ? String(id) : null} services={services} config={config} onBack={() => leave({ force: true })} onGuard={setGuard} onHistory={id ? () => setHistoryOpen(true) : undefined} />
      {id && (
        <HistoryDrawer
          kind={kind}
          itemKey={String(id)}
          open={historyOpen}
          onClose={() => setHistoryOpen(false)}
          editing={editing}
          onRestored={() => {
            setHistoryOpen(false);
            setLoaded((n) => n + 1);
          }}
        />
      )}
    </>
  );
}
