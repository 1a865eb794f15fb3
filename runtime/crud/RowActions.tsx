// A row's action links (修改, 复制, 删除, 测试, …): those the user may run and whose `when` holds for the row.
import { Button, Space } from 'antd';
import type { ActionDecl, Row } from './types';
import { actionLabel, actionShownFor } from './actions';

interface Props {
  actions: ActionDecl[] | undefined;
  row: Row;
  can: (a: ActionDecl) => boolean;
  run: (a: ActionDecl, row: Row) => void;
}

export function RowActions({ actions, row, can, run }: Props) {
  return (
    <Space size={0} wrap={false}>
      {(actions ?? []).filter((a) => can(a) && actionShownFor(a, row)).map((a, i) => (
        <Button key={i} type="link" size="small" danger={a.danger ?? a.action === 'delete'} onClick={() => run(a, row)}>
          {actionLabel(a)}
        </Button>
      ))}
    </Space>
  );
}
