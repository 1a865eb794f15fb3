// The spec's Chinese texts, from schemas/messages/zh-CN.json, with {name} placeholders filled.
import { message, type MessageKey } from '../../common/messages';

export { messages, type MessageKey } from '../../common/messages';

export function t(key: MessageKey, vars: Record<string, string | number> = {}): string {
  return message(key, vars);
}
