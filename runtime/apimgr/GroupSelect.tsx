// The API group tree select of the design edit screen (groups from …/group/select, a flat list).
import { useEffect, useMemo, useState } from 'react';
import { TreeSelect } from 'antd';
import { buildTree, treeOptions } from '../ui/tree';
import { apiCalls, type ApiGroup } from './api';

export interface GroupSelectProps {
  value?: number | null;
  onChange?: (id: number | undefined) => void;
  disabled?: boolean;
}

export function GroupSelect({ value, onChange, disabled }: GroupSelectProps) {
  const [groups, setGroups] = useState<ApiGroup[] | null>(null);
  useEffect(() => {
    apiCalls.groups().then((g) => setGroups(g ?? []), () => setGroups([]));
  }, []);
  const options = useMemo(() => treeOptions(buildTree((groups ?? []) as unknown as Record<string, unknown>[])), [groups]);
  return (
    <TreeSelect
      aria-label="分组"
      placeholder="请选择分组"
      loading={groups === null}
      disabled={disabled}
      value={value ? String(value) : undefined}
      treeData={options}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
      fieldNames={{ label: 'title', value: 'value', children: 'children' }}
      onChange={(v) => onChange?.(v ? Number(v) : undefined)}
      notFoundContent="暂无分组，请先在API设计列表左侧添加分组"
    />
  );
}
