// The preview's variable inspector (issue 23 §6): on demand, the screen's variables with their current values,
// live as filters and clicks change them, and a reset to the values the preview started with.
import { useSyncExternalStore } from 'react';
import { Button, Popover, Table } from 'antd';
import { valueText } from '../../common/variables';
import type { VariableStore } from '../../widgets';

function Values({ store }: { store: VariableStore }) {
  const values = useSyncExternalStore(store.subscribe, store.values);
  const rows = store.declared.map((v) => ({ key: v.name, name: v.name, title: v.title ?? '', value: valueText(values[v.name]) }));
  return (
    <div data-testid="variable-inspector" style={{ width: 360, maxWidth: 'calc(100vw - 32px)' }}>
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        scroll={{ y: 320 }}
        columns={[
          { title: '变量', dataIndex: 'name', width: 120, ellipsis: true, render: (n: string, r) => (r.title ? `${r.title}（${n}）` : n) },
          { title: '当前值', dataIndex: 'value', ellipsis: true, onCell: (r) => ({ 'data-variable': r.name }) as React.HTMLAttributes<HTMLElement> },
        ]}
      />
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
    <Popover trigger="click" placement="bottomRight" title="变量当前值" content={<Values store={store} />}>
      <Button size="small" data-testid="variable-inspector-open" style={{ position: 'fixed', top: 8, right: 290, zIndex: 10, opacity: 0.85 }}>
        变量
      </Button>
    </Popover>
  );
}
