// Two SQL scripts side by side with their differences marked (the approval screen: online vs submitted).
import { lazy, Suspense } from 'react';
import { Col, Input, Row } from 'antd';

const Diff = lazy(() => import('../ui/monaco/MonacoDiff'));

export interface SqlDiffProps {
  original: string;
  modified: string;
  height?: number | string;
}

export function SqlDiff({ original, modified, height = 240 }: SqlDiffProps) {
  const fallback = (
    <Row gutter={8}>
      <Col span={12}>
        <Input.TextArea value={original} readOnly rows={8} style={{ fontFamily: 'monospace' }} />
      </Col>
      <Col span={12}>
        <Input.TextArea value={modified} readOnly rows={8} style={{ fontFamily: 'monospace' }} />
      </Col>
    </Row>
  );
  return (
    <Suspense fallback={fallback}>
      <Diff original={original} modified={modified} language="sql" height={height} />
    </Suspense>
  );
}
