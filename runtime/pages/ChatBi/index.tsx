// Placeholder (spec): a chat-based BI view.
import { Result } from 'antd';

export default function ChatBi() {
  return <Result status="info" title="对话式BI" subTitle="建设中" />;
}
