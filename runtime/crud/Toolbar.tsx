// The toolbar: the page's declared actions the user may run (新增, 删除 of the selected rows, 导出, 导入, …). An
// export declaring more than one format is a menu (Excel / CSV); a running export shows its button loading.
import { useState } from 'react';
import { Button, Dropdown, Space } from 'antd';
import { DownOutlined } from '@ant-design/icons';
import type { ActionDecl } from './types';
import { actionLabel } from './actions';

interface Props {
  actions: ActionDecl[] | undefined;
  can: (a: ActionDecl) => boolean;
  /** `extra`: the export's chosen format ({ format: 'xlsx' }) */
  run: (a: ActionDecl, extra?: Record<string, unknown>) => unknown;
  /** the page's own buttons before the declared ones (a tree table's 展开/折叠) */
  before?: React.ReactNode;
}

const FORMAT_LABELS: Record<string, string> = { xlsx: 'Excel（XLSX）', csv: 'CSV' };

export function Toolbar({ actions, can, run, before }: Props) {
  const [busy, setBusy] = useState<number | null>(null);
  const go = async (i: number, a: ActionDecl, extra?: Record<string, unknown>) => {
    setBusy(i);
    try {
      await run(a, extra);
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space wrap>
      {before}
      {(actions ?? []).map((a, i) => {
        if (!can(a)) return null;
        // a page's own 新增 stands out; adding to another page (a subscription) does not
        const type = (a.primary ?? (a.action === 'add' && !a.page)) ? 'primary' : 'default';
        if (a.action === 'download' && (a.formats?.length ?? 0) > 1) {
          return (
            <Dropdown
              key={i}
              trigger={['click']}
              menu={{ items: a.formats!.map((f) => ({ key: f, label: FORMAT_LABELS[f] ?? f })), onClick: ({ key }) => void go(i, a, { format: key }) }}
            >
              <Button type={type} loading={busy === i} data-testid="toolbar-export">
                {actionLabel(a)} <DownOutlined />
              </Button>
            </Dropdown>
          );
        }
        return (
          <Button key={i} type={type} danger={a.danger} loading={a.action === 'download' && busy === i} onClick={() => void go(i, a)}>
            {actionLabel(a)}
          </Button>
        );
      })}
    </Space>
  );
}
