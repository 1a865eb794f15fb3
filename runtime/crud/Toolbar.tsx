// The toolbar: the page's declared actions the user may run (新增, 删除 of the selected rows, 导出, …).
import { Button, Space } from 'antd';
import type { ActionDecl } from './types';
import { actionLabel } from './actions';

interface Props {
  actions: ActionDecl[] | undefined;
  can: (a: ActionDecl) => boolean;
  run: (a: ActionDecl) => void;
  /** the page's own buttons before the declared ones (a tree table's 展开/折叠) */
  before?: React.ReactNode;
}

export function Toolbar({ actions, can, run, before }: Props) {
  return (
    <Space wrap>
      {before}
      {(actions ?? []).filter(can).map((a, i) => (
        <Button key={i} type={a.primary ?? a.action === 'add' ? 'primary' : 'default'} danger={a.danger} onClick={() => run(a)}>
          {actionLabel(a)}
        </Button>
      ))}
    </Space>
  );
}
