// A `type: "switch"` column: the row's field as a switch between the declared on / off values. Toggling (after the
// declared confirmation) sends { key, field: new value } to the column's call, then the list reloads; a refused
// call puts the switch back (the request layer shows the server's reason).
import { useEffect, useState } from 'react';
import { Switch } from 'antd';
import type { ColumnDecl, Row } from './types';
import { useCrudServices } from './services';
import { useFeedback } from './feedback';
import { fill, parseCall } from './template';

interface Props {
  col: ColumnDecl;
  row: Row;
  rowKey: string;
  reload: () => void;
}

const same = (a: unknown, b: unknown) => a === b || (a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b));

export function SwitchCell({ col, row, rowKey, reload }: Props) {
  const services = useCrudServices();
  const { modal, message } = useFeedback();
  const field = col.field ?? '';
  const on = col.on ?? true;
  const off = col.off ?? false;
  // what the switch shows while its call runs and until the reloaded row arrives
  const [pending, setPending] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => setPending(null), [row]);
  const checked = pending ?? same(row[field], on);
  const allowed = !!col.call && (!col.perms || services.hasPermission(col.perms));

  const toggle = (next: boolean) => {
    const name = next ? (col.onText ?? '启用') : (col.offText ?? '停用');
    const go = async () => {
      setPending(next);
      setBusy(true);
      try {
        const { method, path } = parseCall(col.call!, row);
        const payload = { [rowKey]: row[rowKey], [field]: next ? on : off };
        await services.request(method, path, method === 'GET' ? { params: payload } : { body: payload });
        message.success(`${name}成功`);
        reload();
      } catch {
        setPending(null); // back to what the row holds; the reason was shown by the request layer
      } finally {
        setBusy(false);
      }
    };
    if (!col.confirm) return void go();
    modal.confirm({ title: '系统提示', content: fill(col.confirm, { ...row, action: name }), okText: '确定', cancelText: '取消', onOk: go });
  };

  return <Switch size="small" checked={checked} loading={busy} disabled={!allowed} onChange={toggle} aria-label={col.title} />;
}
