// The preview's variable inspector (issue 23 §6): on demand, the screen's variables with their current values,
// live as filters and clicks change them, and a reset to the values the preview started with. One of the
// preview's tools (PreviewTools: shown when the pointer comes near).
import { useSyncExternalStore } from 'react';
import { Button, Popover } from 'antd';
import { valueText } from '../../common/variables';
import type { VariableStore } from '../../widgets';
import { TOOLS_POPUP_CLASS } from './PreviewTools';

const CELL = { padding: '4px 8px', borderBottom: '1px solid #f0f0f0', textAlign: 'left', wordBreak: 'break-all' } as const;

function Values({ store }: { store: VariableStore }) {
  const values = useSyncExternalStore(store.subscribe, store.values);
  const rows = store.declared.map((v) => ({ key: v.name, name: v.name, title: v.title ?? '', value: valueText(values[v.name]) }));
  return (
    <div data-testid="variable-inspector" style={{ width: 360, maxWidth: 'calc(100vw - 32px)' }}>
      {/* a plain table: antd's Table would add its code to every preview */}
      <div style={{ maxHeight: 320, overflow: 'auto' }}>
        <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: 13 }}>
          <thead>
            <tr>
              <th style={CELL}>变量</th>
              <th style={CELL}>当前值</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <td style={CELL}>{r.title ? `${r.title}（${r.name}）` : r.name}</td>
                <td style={CELL} data-variable={r.name}>
                  {r.value}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div style={{ textAlign: 'right', marginTop: 8 }}>
        <Button size="small" onClick={() => store.reset()}>
          全部重置
        </Button>
      </div>
    </div>
  );
}

export function VariableInspector({ store }: { store: VariableStore }) {
  return (
    <Popover trigger="click" placement="bottomRight" title="变量当前值" content={<Values store={store} />} rootClassName={TOOLS_POPUP_CLASS}>
      <Button size="small" data-testid="variable-inspector-open">
        变量
      </Button>
    </Popover>
  );
}
