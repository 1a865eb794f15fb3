// Placeholder (spec): the solution introduction.
import { Result } from 'antd';

export default function Solution() {
  return <Result status="info" title="解决方案介绍" subTitle="建设中" />;
}
